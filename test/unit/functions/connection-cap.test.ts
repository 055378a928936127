import { describe, expect, it } from 'vitest';
import { ConnectionCap } from '../../../functions/adapters/node/connection-cap.ts';

describe('ConnectionCap', () => {
  it('accepts up to the cap without evicting anything', () => {
    const cap = new ConnectionCap<string>(2);
    expect(cap.admit('a')).toEqual({ accepted: true, evict: null });
    expect(cap.admit('b')).toEqual({ accepted: true, evict: null });
    expect(cap.open).toBe(2);
  });

  it('past the cap, a new connection takes the place of the one idle the longest', () => {
    const cap = new ConnectionCap<string>(3);
    for (const c of ['a', 'b', 'c']) cap.admit(c);
    // a and b each serve a request; a finishes last, so c (never sent one) then b are idle longest.
    cap.requestStarted('a');
    cap.requestStarted('b');
    cap.requestEnded('b');
    cap.requestEnded('a');
    expect(cap.admit('d')).toEqual({ accepted: true, evict: 'c' });
    expect(cap.admit('e')).toEqual({ accepted: true, evict: 'b' });
    expect(cap.admit('f')).toEqual({ accepted: true, evict: 'a' });
    expect(cap.open).toBe(3);
  });

  it('never evicts a connection with a request in flight; refuses when every one has one', () => {
    const cap = new ConnectionCap<string>(2);
    cap.admit('a');
    cap.admit('b');
    cap.requestStarted('a');
    expect(cap.admit('c')).toEqual({ accepted: true, evict: 'b' });
    cap.requestStarted('c');
    expect(cap.admit('d')).toEqual({ accepted: false });
    expect(cap.open).toBe(2);
    // Once a's response is sent, a is idle and can be evicted.
    cap.requestEnded('a');
    expect(cap.admit('d')).toEqual({ accepted: true, evict: 'a' });
  });

  it('counts pipelined requests: a connection is idle only when its last response is out', () => {
    const cap = new ConnectionCap<string>(1);
    cap.admit('a');
    cap.requestStarted('a');
    cap.requestStarted('a');
    cap.requestEnded('a');
    expect(cap.admit('b')).toEqual({ accepted: false });
    cap.requestEnded('a');
    expect(cap.admit('b')).toEqual({ accepted: true, evict: 'a' });
  });

  it('a closed connection frees its place; events for evicted or unknown connections change nothing', () => {
    const cap = new ConnectionCap<string>(2);
    cap.admit('a');
    cap.admit('b');
    cap.requestStarted('a');
    cap.closed('a');
    expect(cap.open).toBe(1);
    expect(cap.admit('c')).toEqual({ accepted: true, evict: null });
    expect(cap.admit('d')).toEqual({ accepted: true, evict: 'b' });
    // b was evicted: its close and any late request event are no-ops.
    cap.requestStarted('b');
    cap.requestEnded('b');
    cap.closed('b');
    expect(cap.open).toBe(2);
    expect(cap.admit('e')).toEqual({ accepted: true, evict: 'c' });
  });
});
