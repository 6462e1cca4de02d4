// Shared by the ccxt checks: one line per call, ok or FAIL with the reason.
'use strict';

const path = require('path');
const fs = require('fs');

const CALL_TIMEOUT_MS = 5000;

function keysFromEnvOrFixtures() {
  const parse = (v) => {
    const i = v.indexOf(':');
    return { apiKey: v.slice(0, i), secret: v.slice(i + 1) };
  };
  if (process.env.CCXT_KEY_A && process.env.CCXT_KEY_B) { // both set and not empty
    return [parse(process.env.CCXT_KEY_A), parse(process.env.CCXT_KEY_B)];
  }
  const file = path.join(__dirname, '..', '..', 'fixtures', 'accounts.json');
  const accounts = JSON.parse(fs.readFileSync(file, 'utf8'));
  return accounts.slice(0, 2).map((a) => {
    const k = a.keys.find((key) => key.role === 'full');
    return { apiKey: k.api_key, secret: k.secret };
  });
}

const results = [];

function withTimeout(promise, ms, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

// call runs fn, checks its result with check (which returns a one-line
// summary or throws), and prints the line.
async function call(name, fn, check) {
  try {
    const value = await withTimeout(Promise.resolve().then(fn), CALL_TIMEOUT_MS, name);
    const summary = check ? check(value) : '';
    results.push({ name, ok: true });
    console.log(`ok   ${name}${summary ? ': ' + summary : ''}`);
    return value;
  } catch (e) {
    const reason = (e && (e.constructor && e.constructor.name !== 'Error' ? e.constructor.name + ' ' : '') + (e.message || String(e))) || String(e);
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${reason.replace(/\s+/g, ' ').slice(0, 400)}`);
    return undefined;
  }
}

// nextMs waits for the clock's next millisecond. ccxt pro's hitbtc keys a
// trade request (createOrderWs, cancelOrderWs, ...) by this.nonce(), the
// time in ms, and does not send a request whose key is already in use: a
// second request in the same millisecond as an answered one (easy against
// an emulator that answers in well under a millisecond, never seen against
// the real service) is never sent and never answered.
function nextMs() {
  return new Promise((resolve) => setTimeout(resolve, 2));
}

function expect(cond, msg) {
  if (!cond) throw new Error(msg);
}

function num(x) {
  return typeof x === 'number' && Number.isFinite(x);
}


// finish prints the tally and exits 1 when a call failed or none ran.
function finish() {
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} ok, ${failed} FAIL`);
  process.exit(failed || results.length === 0 ? 1 : 0);
}

function crash(e) {
  console.log(`FAIL check: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' ') : e}`);
  process.exit(1);
}

// baseFromArgs is the target's base URL (http://HOST:PORT).
function baseFromArgs() {
  const base = (process.argv[2] || process.env.CCXT_BASE || '').replace(/\/+$/, '');
  if (!base) {
    console.error(`usage: node ${path.basename(process.argv[1])} http://HOST:PORT`);
    process.exit(2);
  }
  return base;
}

// readRestingOrder reads a resting order back the three ways ccxt offers:
// by id, as an open order, and among the symbol's open orders.
async function readRestingOrder(a, symbol, id) {
  await call('fetchOrder', () => a.fetchOrder(id, symbol), (o) => {
    expect(o.id === id && o.status === 'open', `${o.id} ${o.status}`);
    return `${o.id} ${o.status}`;
  });
  await call('fetchOpenOrder', () => a.fetchOpenOrder(id, symbol), (o) => {
    expect(o.id === id && o.status === 'open', `${o.id} ${o.status}`);
    return `${o.id} ${o.status}`;
  });
  await call('fetchOpenOrders', () => a.fetchOpenOrders(symbol), (os) => {
    expect(os.some((o) => o.id === id), `${id} not among ${os.length}`);
    return `${os.length} open`;
  });
}

module.exports = { readRestingOrder, CALL_TIMEOUT_MS, keysFromEnvOrFixtures, call, nextMs, expect, num, finish, crash, baseFromArgs };
