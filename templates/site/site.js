// The pages' one script (served at /assets/site.js, same origin only): title search through the
// API, the gallery filter, the personal assessment form, and the overview table's sort and filter.
// Every page works without it; the script only adds to what the HTML already shows. Text goes in with textContent, never as HTML.
'use strict';
(function () {
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  // Search: GET <the form's action>?q=... and list the matches as links to their pages. URLs come
  // from the page (the route table wrote them there), never from this script.
  function setupSearch(form) {
    var input = form.querySelector('input[name=q]');
    var results = document.querySelector('[data-search-results]');
    var status = document.querySelector('[data-search-status]');
    var seq = 0;
    function run() {
      var q = input.value.trim();
      var mine = ++seq;
      results.replaceChildren();
      if (!q) {
        status.textContent = '';
        return;
      }
      fetch(form.getAttribute('action') + '?limit=10&q=' + encodeURIComponent(q.slice(0, 100)), { headers: { Accept: 'application/json' } })
        .then(function (res) {
          return res.json().then(function (body) {
            return { ok: res.ok, body: body };
          });
        })
        .then(function (r) {
          if (mine !== seq) return;
          if (!r.ok) {
            status.textContent = r.body.detail || 'The search failed.';
            return;
          }
          status.textContent = r.body.count === 0 ? 'No occupation matches “' + q + '”.' : r.body.count + (r.body.count === 1 ? ' match' : ' matches') + (r.body.count > r.body.data.length ? ', first ' + r.body.data.length + ' shown.' : '.');
          r.body.data.forEach(function (o) {
            var li = el('li');
            li.appendChild(el('a', o.title, { href: form.getAttribute('data-page-pattern').replace(form.getAttribute('data-slug-param') || ':slug', o.slug) }));
            li.appendChild(el('span', ' · ' + (form.getAttribute('data-code-label') || 'SOC') + ' ' + o[form.getAttribute('data-code-field') || 'soc_code'], { class: 'muted' }));
            results.appendChild(li);
          });
        })
        .catch(function () {
          if (mine === seq) status.textContent = 'The search could not reach the API.';
        });
    }
    var timer = null;
    var isco = setupIscoSearch(form);
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      run();
      isco(input.value.trim());
    });
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        run();
        isco(input.value.trim());
      }, 250);
    });
  }

  // Gallery: filter the rows by title or SOC code; hide groups left empty.
  function setupFilter(input) {
    var status = document.querySelector('[data-filter-status]');
    var rows = Array.prototype.slice.call(document.querySelectorAll('tr[data-title]'));
    var groups = Array.prototype.slice.call(document.querySelectorAll('[data-group]'));
    document.querySelector('[data-filter-box]').hidden = false;
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (r) {
        var hit = !q || r.getAttribute('data-title').indexOf(q) !== -1;
        r.hidden = !hit;
        if (hit) shown++;
      });
      groups.forEach(function (g) {
        g.hidden = !g.querySelector('tr[data-title]:not([hidden])');
      });
      status.textContent = q ? shown + ' of ' + rows.length + ' cards match.' : '';
    });
  }

  // Assessment: POST /api/v1/displacement/assess with the chosen factors, show the result.
  function setupAssess(form) {
    var out = document.querySelector('[data-assess-output]');
    form.hidden = false;
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var factors = {};
      Array.prototype.forEach.call(form.querySelectorAll('select[name]'), function (s) {
        if (s.value) factors[s.name] = s.value;
      });
      // Tasks marked "some" or "a lot" go as relative shares; none marked: the occupation as a whole.
      var tasks = [];
      Array.prototype.forEach.call(form.querySelectorAll('select[data-task-id]'), function (s) {
        var share = Number(s.value);
        if (share > 0) tasks.push({ task_id: Number(s.getAttribute('data-task-id')), share: share });
      });
      var request = { soc_code: form.getAttribute('data-soc'), personal_factors: factors };
      if (tasks.length) {
        request.tasks = tasks;
        var other = Number(form.querySelector('select[data-other-share]').value);
        if (other > 0) request.other_share = other;
      }
      out.hidden = false;
      out.textContent = 'Computing…';
      fetch(form.getAttribute('data-action'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(request),
      })
        .then(function (res) {
          return res.json().then(function (body) {
            return { ok: res.ok, body: body };
          });
        })
        .then(function (r) {
          out.replaceChildren();
          if (!r.ok) {
            out.appendChild(el('p', r.body.detail || 'The assessment failed.'));
            return;
          }
          var b = r.body;
          var p = el('p');
          p.appendChild(el('span', 'Your score: '));
          p.appendChild(el('b', Math.round(b.personalized_score).toFixed(0), { 'data-personalized-score': '' }));
          p.appendChild(el('span', ' of 100 (' + b.risk_tier + ' risk), range over modelling choices '));
          p.appendChild(el('span', Math.round(b.personalized_low) + ' to ' + Math.round(b.personalized_high), { 'data-personal-range': '' }));
          p.appendChild(el('span', ', from ' + Math.round(b.base_score) + ' for the occupation. AI can do about ' + Math.round(b.exposure_score) + '% of ' + (request.tasks ? 'your' : 'its') + ' working time.'));
          out.appendChild(p);
          var names = Object.keys(b.adjustments);
          if (names.length) {
            out.appendChild(el('p', 'What moved it:'));
            var ul = el('ul', null, { 'data-assess-moves': '' });
            names.forEach(function (n) {
              var v = b.adjustments[n];
              var label = n === 'tasks' ? null : form.querySelector('label[for="f-' + n + '"]');
              var name = n === 'tasks' ? 'The tasks you marked' : label ? label.textContent : n;
              ul.appendChild(el('li', name + ': ' + (v > 0 ? '+' : '') + v, { 'data-adjustment': n }));
            });
            out.appendChild(ul);
          }
        })
        .catch(function () {
          out.textContent = 'The assessment could not reach the API.';
        });
    });
  }

  // The same words among the ISCO-08 unit groups (their titles, their U.S. occupations' titles and
  // common non-U.S. titles such as "solicitor"), listed apart: the "not in the U.S.?" path.
  function setupIscoSearch(form) {
    var action = form.getAttribute('data-isco-action');
    var section = document.querySelector('[data-isco-section]');
    if (!action || !section) return function () {};
    var results = section.querySelector('[data-isco-results]');
    var status = section.querySelector('[data-isco-status]');
    var seq = 0;
    return function (q) {
      var mine = ++seq;
      results.replaceChildren();
      if (!q) {
        section.hidden = true;
        return;
      }
      fetch(action + '?limit=5&q=' + encodeURIComponent(q.slice(0, 100)), { headers: { Accept: 'application/json' } })
        .then(function (res) {
          return res.json().then(function (body) {
            return { ok: res.ok, body: body };
          });
        })
        .then(function (r) {
          if (mine !== seq) return;
          if (!r.ok || r.body.count === 0) {
            section.hidden = true;
            return;
          }
          section.hidden = false;
          status.textContent = r.body.count + (r.body.count === 1 ? ' ISCO-08 unit group' : ' ISCO-08 unit groups') + (r.body.count > r.body.data.length ? ', first ' + r.body.data.length + ' shown.' : '.');
          r.body.data.forEach(function (u) {
            var li = el('li');
            li.appendChild(el('a', u.title, { href: form.getAttribute('data-isco-pattern').replace(':isco_slug', u.slug) }));
            li.appendChild(el('span', ' · ISCO-08 ' + u.isco_code, { class: 'muted' }));
            results.appendChild(li);
          });
        })
        .catch(function () {
          if (mine === seq) section.hidden = true;
        });
    };
  }

  // Snippets name the origin `npm start` serves; served from anywhere else, they name this page's.
  function setOrigin() {
    if (!/^https?:$/.test(location.protocol)) return;
    document.querySelectorAll('[data-origin]').forEach(function (e) {
      e.textContent = location.origin;
    });
  }

  // Overview table: filter by title, major group and tier; sort by a column (the rows leave their
  // group sections while sorted, and go back in the built order when sorted by group again).
  function setupTable(table) {
    var tools = document.querySelector('[data-table-tools]');
    var status = document.querySelector('[data-table-status]');
    var bodies = Array.prototype.slice.call(table.tBodies);
    var rows = Array.prototype.slice.call(table.querySelectorAll('tr[data-g]'));
    var flat = document.createElement('tbody');
    flat.hidden = true;
    table.appendChild(flat);
    var q = tools.querySelector('[data-f=q]');
    var g = tools.querySelector('[data-f=g]');
    var t = tools.querySelector('[data-f=t]');
    tools.hidden = false;
    function filter() {
      var words = q.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (r) {
        var hit = (!words || r.cells[0].textContent.toLowerCase().indexOf(words) !== -1) && (!g.value || r.getAttribute('data-g') === g.value) && (!t.value || r.getAttribute('data-t') === t.value);
        r.hidden = !hit;
        if (hit) shown++;
      });
      bodies.forEach(function (b) {
        b.hidden = !flat.hidden || !b.querySelector('tr[data-g]:not([hidden])');
      });
      status.textContent = shown + ' of ' + rows.length + ' occupations shown.';
    }
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var buttons = [];
    heads.forEach(function (th, col) {
      var numeric = th.getAttribute('data-sort') === 'num';
      var b = el('button', th.textContent, { type: 'button' });
      th.replaceChildren(b);
      buttons.push(b);
      b.addEventListener('click', function () {
        // Sorted by this column already: the other way; else numbers highest first, words A to Z.
        var current = th.getAttribute('aria-sort');
        var dir = current ? (current === 'ascending' ? -1 : 1) : numeric ? -1 : 1;
        var byGroup = th.hasAttribute('data-group-col') && dir === 1;
        heads.forEach(function (h) {
          h.removeAttribute('aria-sort');
        });
        if (byGroup) {
          // Back to the built order: each row in its group's section.
          rows.forEach(function (r) {
            table.querySelector('tbody[data-group="' + r.getAttribute('data-g') + '"]').appendChild(r);
          });
          flat.hidden = true;
          th.setAttribute('aria-sort', 'ascending');
          filter();
          return;
        }
        var key = function (r) {
          var c = r.cells[col];
          if (numeric) {
            var v = c.getAttribute('data-v');
            return v === '' ? -Infinity : Number(v);
          }
          return c.textContent.toLowerCase();
        };
        var sorted = rows.slice().sort(function (a, b) {
          var x = key(a), y = key(b);
          return x < y ? -dir : x > y ? dir : 0;
        });
        sorted.forEach(function (r) {
          flat.appendChild(r);
        });
        flat.hidden = false;
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        filter();
      });
    });
    [q, g, t].forEach(function (c) {
      c.addEventListener('input', filter);
    });
  }

  function init() {
    setOrigin();
    var search = document.querySelector('form[data-search]');
    if (search) setupSearch(search);
    var filter = document.querySelector('input[data-filter]');
    if (filter) setupFilter(filter);
    var assess = document.querySelector('form[data-assess]');
    if (assess) setupAssess(assess);
    var table = document.querySelector('table[data-occupations]');
    if (table) setupTable(table);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
