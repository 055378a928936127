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

  // Assessment: the tasks ticked (each with its step of time) and the factors answered go to
  // POST /api/v1/displacement/assess; the answer is drawn against the occupation's score and range.
  var SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var whole = function (x) {
    return String(Math.round(x));
  };
  var signed = function (x) {
    return (x > 0 ? '+' : '') + x;
  };

  function setupAssess(form) {
    var out = document.querySelector('[data-assess-output]');
    var levels = JSON.parse(form.getAttribute('data-levels'));
    var tiers = JSON.parse(form.getAttribute('data-tiers')).sort(function (a, b) {
      return a.min - b.min;
    });
    var occ = { score: Number(form.getAttribute('data-score')), low: Number(form.getAttribute('data-low')), high: Number(form.getAttribute('data-high')), exposure: Number(form.getAttribute('data-exposure')) };
    // Each task's how-much control (a slider over the steps, named after the task, with the step in
    // words), made here: the form is shown only with this script.
    var rows = Array.prototype.map.call(form.querySelectorAll('[data-assess-tasks] li'), function (li) {
      var box = li.querySelector('input[type=checkbox]');
      var key = box.id.slice(2);
      var more = el('div', null, { class: 'how-much', hidden: '' });
      more.appendChild(el('span', 'How much of your time', { id: 'hl-' + key }));
      var range = el('input', null, { type: 'range', id: 'h-' + key, min: '1', max: String(levels.length), step: '1', value: form.getAttribute('data-level'), 'aria-labelledby': 'hl-' + key + ' tl-' + key });
      var out = el('output', null, { for: 'h-' + key, 'aria-hidden': 'true' });
      more.appendChild(range);
      more.appendChild(out);
      li.appendChild(more);
      return { box: box, range: range, out: out, more: more };
    });
    var share = function (r) {
      return r.box.checked ? levels[Number(r.range.value) - 1].share : 0;
    };
    // Each ticked task's step in words, with the share of the time it then stands for.
    function update() {
      var total = rows.reduce(function (s, r) {
        return s + share(r);
      }, 0);
      rows.forEach(function (r) {
        r.more.hidden = !r.box.checked;
        if (!r.box.checked) return;
        var words = levels[Number(r.range.value) - 1].label + ': about ' + Math.round((100 * share(r)) / total) + '% of your time';
        r.out.textContent = words;
        r.range.setAttribute('aria-valuetext', words);
      });
    }
    rows.forEach(function (r) {
      r.box.addEventListener('change', update);
      r.range.addEventListener('input', update);
    });
    update();
    form.hidden = false;
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var factors = {};
      Array.prototype.forEach.call(form.querySelectorAll('select[name]'), function (s) {
        if (s.value) factors[s.name] = s.value;
      });
      // Ticked tasks go as relative shares; none ticked: the occupation as a whole.
      var tasks = [];
      var other = 0;
      rows.forEach(function (r) {
        if (!r.box.checked) return;
        if (r.box.hasAttribute('data-other')) other = share(r);
        else tasks.push({ task_id: Number(r.box.getAttribute('data-task-id')), share: share(r) });
      });
      var request = { soc_code: form.getAttribute('data-soc'), personal_factors: factors };
      if (tasks.length) {
        request.tasks = tasks;
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
            return { ok: res.ok, status: res.status, body: body };
          });
        })
        .then(function (r) {
          out.replaceChildren();
          if (r.ok) showResult(form, out, r.body, request, occ, tiers);
          else showProblem(out, r.status, r.body);
          out.scrollIntoView({ block: 'nearest' });
        })
        .catch(function () {
          out.textContent = 'The assessment could not reach the API. Check the connection and try again.';
        });
    });
  }

  // An RFC 9457 problem: its title and detail, and each error with its field and allowed values.
  function showProblem(out, status, p) {
    out.appendChild(el('p', 'The API could not assess this (' + (p.title || 'error') + ', ' + status + ').', { 'data-assess-error': '' }));
    if (p.detail) out.appendChild(el('p', p.detail));
    if (p.errors && p.errors.length) {
      var ul = el('ul');
      p.errors.forEach(function (e) {
        ul.appendChild(el('li', e.location + ': ' + e.message + (e.allowed ? ' (allowed: ' + e.allowed.join(', ') + ')' : '')));
      });
      out.appendChild(ul);
    }
  }

  function tierOf(score, tiers) {
    var t = tiers[0];
    tiers.forEach(function (x) {
      if (score >= x.min) t = x;
    });
    return t;
  }

  function showResult(form, out, b, request, occ, tiers) {
    var tier = tiers.filter(function (t) {
      return t.tier === b.risk_tier;
    })[0] || tierOf(b.personalized_score, tiers);
    var next = tiers[tiers.indexOf(tier) + 1];
    out.appendChild(el('h3', 'Your result'));
    var p = el('p', null, { class: 'result-line' });
    p.appendChild(el('span', 'Your score: '));
    p.appendChild(el('b', whole(b.personalized_score), { 'data-personalized-score': '' }));
    p.appendChild(el('span', ' of 100, '));
    p.appendChild(el('b', b.risk_tier + ' exposure', { class: b.risk_tier, 'data-personal-tier': '' }));
    p.appendChild(el('span', ' (' + (next ? 'from ' + tier.min + ' to under ' + next.min : tier.min + ' and above') + '). Over the modelling choices it runs '));
    p.appendChild(el('span', whole(b.personalized_low) + ' to ' + whole(b.personalized_high), { 'data-personal-range': '' }));
    p.appendChild(el('span', '; the occupation scores ' + whole(b.base_score) + ' (' + whole(occ.low) + ' to ' + whole(occ.high) + ').'));
    out.appendChild(p);
    out.appendChild(scale(b, occ, tiers));
    // What moved it: the task mix (the key `tasks`) apart from the answers to the questions.
    var names = Object.keys(b.adjustments);
    var factorNames = names.filter(function (n) {
      return n !== 'tasks';
    });
    var ul = el('ul', null, { 'data-assess-moves': '' });
    if (request.tasks) {
      var li = el('li', null, { 'data-adjustment': 'tasks' });
      li.appendChild(el('span', 'Your task mix: '));
      li.appendChild(el('b', signed(b.adjustments.tasks) + ' points', { 'data-points': '' }));
      li.appendChild(el('span', '. AI can do about ' + whole(b.exposure_score) + '% of your working time as you describe it, against ' + whole(occ.exposure) + '% of the occupation\'s.'));
      ul.appendChild(li);
    }
    factorNames.forEach(function (n) {
      var select = form.querySelector('select[name="' + n + '"]');
      var option = select && select.selectedOptions[0];
      var label = form.querySelector('label[for="f-' + n + '"]');
      var li = el('li', null, { 'data-adjustment': n });
      li.appendChild(el('span', (label ? label.textContent : n) + (option ? ' (' + option.textContent + ')' : '') + ': '));
      li.appendChild(el('b', signed(b.adjustments[n]) + ' points', { 'data-points': '' }));
      // An answer that moves the score elsewhere but not here: below the exposure it needs.
      var floor = option && option.getAttribute('data-min-exposure');
      if (b.adjustments[n] === 0 && Number(option && option.getAttribute('data-moves-by')) !== 0 && floor !== null) {
        li.appendChild(el('span', '. It applies only where AI can do at least ' + floor + '% of the work time; here it is ' + b.exposure_score + '%.'));
      } else li.appendChild(el('span', '.'));
      ul.appendChild(li);
    });
    var factorsTotal = factorNames.reduce(function (s, n) {
      return s + b.adjustments[n];
    }, 0);
    var words = request.tasks ? 'Your task mix moved the score ' + signed(b.adjustments.tasks) + ' points' : 'With no task ticked, the score starts from the occupation\'s';
    var answers = Math.round(factorsTotal * 10) / 10;
    if (factorNames.length) words += answers === 0 ? '; your answers did not move it' : (request.tasks ? ' and your answers ' : '; your answers moved it ') + signed(answers) + ' points';
    words += ': from ' + whole(b.base_score) + ' to ' + whole(b.personalized_score) + '.';
    out.appendChild(el('h4', 'What moved it'));
    out.appendChild(el('p', words, { 'data-assess-summary': '' }));
    if (ul.children.length) out.appendChild(ul);
  }

  // The result on a 0-100 scale: the tiers as bands, the occupation's range and score, and yours.
  function scale(b, occ, tiers) {
    var W = 360, L = 8, R = 352;
    var x = function (v) {
      return L + ((R - L) * Math.max(0, Math.min(100, v))) / 100;
    };
    var label = 'Scale from 0 to 100: this occupation ' + whole(occ.score) + ' (range ' + whole(occ.low) + ' to ' + whole(occ.high) + '); you ' + whole(b.personalized_score) + ' (range ' + whole(b.personalized_low) + ' to ' + whole(b.personalized_high) + ').';
    var s = svg('svg', { viewBox: '0 0 ' + W + ' 136', class: 'assess-scale', role: 'img', 'aria-label': label, focusable: 'false' });
    tiers.forEach(function (t, i) {
      var end = i + 1 < tiers.length ? tiers[i + 1].min : 100;
      s.appendChild(svg('rect', { class: 'band band-' + t.tier, x: x(t.min), y: 0, width: x(end) - x(t.min), height: 92 }));
      s.appendChild(svg('text', { class: 'tier-name ' + t.tier, x: (x(t.min) + x(end)) / 2, y: 131, 'text-anchor': 'middle' }, t.tier));
    });
    var row = function (y, cls, name, v, lo, hi) {
      s.appendChild(svg('text', { x: L, y: y - 10 }, name + ': ' + whole(v) + ' (range ' + whole(lo) + '–' + whole(hi) + ')'));
      s.appendChild(svg('rect', { class: 'span ' + cls, x: x(lo), y: y, width: Math.max(1, x(hi) - x(lo)), height: 10, rx: 5 }));
      s.appendChild(svg('circle', { class: 'mark ' + cls, cx: x(v), cy: y + 5, r: 7 }));
    };
    row(28, 'occ', 'This occupation', occ.score, occ.low, occ.high);
    row(70, 'you', 'You', b.personalized_score, b.personalized_low, b.personalized_high);
    s.appendChild(svg('line', { class: 'axis', x1: L, x2: R, y1: 92, y2: 92 }));
    // Every 25 points and each tier's lower bound.
    var ticks = [0, 25, 50, 75, 100];
    tiers.forEach(function (t) {
      if (ticks.indexOf(t.min) === -1) ticks.push(t.min);
    });
    ticks.sort(function (p, q) {
      return p - q;
    });
    ticks.forEach(function (v, i) {
      s.appendChild(svg('line', { class: 'axis', x1: x(v), x2: x(v), y1: 92, y2: 97 }));
      s.appendChild(svg('text', { x: x(v), y: 112, 'text-anchor': i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle', class: 'tick' }, whole(v)));
    });
    return s;
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

  // "Cite this": each Copy button puts its block's text (the origin already filled in) on the clipboard.
  function setupCopy(button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    var status = document.querySelector('[data-copy-status]');
    if (!source || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(source.textContent).then(
        function () {
          if (status) status.textContent = 'Copied.';
        },
        function () {
          if (status) status.textContent = 'Could not copy: select the text instead.';
        },
      );
    });
  }

  function init() {
    setOrigin();
    document.querySelectorAll('button[data-copy]').forEach(setupCopy);
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
