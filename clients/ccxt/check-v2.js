#!/usr/bin/env node
// Runs the last ccxt release whose hitbtc class spoke API v2 (4.0.33,
// installed as ccxt-hitbtc-v2: REST under /api/2, pro over the single
// stream location /api/2/ws), unchanged, against a conform emulator given by
// base URL alone; one line per unified call, "ok <call>: <what came back>"
// or "FAIL <call>: <reason>". Exit status 1 when any call failed.
//
// usage: node check-v2.js http://127.0.0.1:PORT (keys as for check.js)
'use strict';

const http = require('http');
const ccxt = require('ccxt-hitbtc-v2');
const { CALL_TIMEOUT_MS, keysFromEnvOrFixtures, call, expect, num, finish, crash, baseFromArgs, readRestingOrder } = require('./lib');

const SYMBOL = 'BTC/USDT';

// exchange builds a ccxt 4.0.33 hitbtc (pro) whose every address is under
// base: its REST urls are the host (it appends /api/2/...), its stream url
// the single location.
async function exchange(base, creds) {
  // ccxt 4.0 sends REST through an https agent unless given another.
  const agent = base.startsWith('http:') ? { agent: new http.Agent({ keepAlive: true }) } : {};
  const ex = new ccxt.pro.hitbtc({ ...creds, ...agent, timeout: CALL_TIMEOUT_MS, enableRateLimit: false });
  ex.urls.api = { public: base, private: base, ws: `${base.replace(/^http/, 'ws')}/api/2/ws` };
  if (ex.urls.api.ws.startsWith('ws://') && ex.loadHttpProxyAgent) await ex.loadHttpProxyAgent();
  return ex;
}

async function main() {
  const base = baseFromArgs();
  const [ka, kb] = keysFromEnvOrFixtures();
  const a = await exchange(base, ka);
  const b = await exchange(base, kb);
  const pub = await exchange(base, {});

  const markets = await call('loadMarkets', () => a.loadMarkets(), (m) => {
    const mk = m[SYMBOL];
    expect(mk, `no ${SYMBOL} among ${Object.keys(m).length} markets`);
    expect(num(mk.precision.price) && num(mk.precision.amount), `precision not parsed: ${JSON.stringify(mk.precision)}`);
    return `${Object.keys(m).length} markets, ${SYMBOL} price step ${mk.precision.price}, amount step ${mk.precision.amount}`;
  });
  if (!markets) return;
  await b.loadMarkets();
  await pub.loadMarkets();
  await call('fetchCurrencies', () => a.fetchCurrencies(), (c) => {
    expect(c.BTC && c.USDT, 'BTC or USDT missing');
    return `${Object.keys(c).length} currencies`;
  });

  // A trade between the two accounts, so the market has a price, and a
  // resting order on each side.
  const mk = markets[SYMBOL];
  const qty = Math.max(mk.limits.amount.min || 0, 0.001);
  const px = 30000;
  await call('createOrder (B sells, limit)', () => b.createOrder(SYMBOL, 'limit', 'sell', qty, px), (o) => {
    expect(o.id && o.status === 'open', `status ${o.status}`);
    return `${o.id} ${o.status}`;
  });
  const taker = await call('createOrder (A buys, crosses)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, px), (o) => {
    expect(o.filled === qty && o.status === 'closed', `filled ${o.filled} status ${o.status}`);
    return `${o.id} ${o.status} filled ${o.filled}`;
  });
  const rest = await call('createOrder (A buys, far below)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000), (o) => {
    expect(o.status === 'open' && o.price === 10000 && o.amount === qty, `${o.status} ${o.price} ${o.amount}`);
    return `${o.id} ${o.status}`;
  });
  await call('createOrder (B sells, far above)', () => b.createOrder(SYMBOL, 'limit', 'sell', qty, 90000), (o) => `${o.id} ${o.status}`);

  await call('fetchTicker', () => pub.fetchTicker(SYMBOL), (t) => {
    expect(t.last === px, `last ${t.last}, want ${px}`);
    expect(t.bid === 10000 && t.ask === 90000, `bid ${t.bid} ask ${t.ask}`);
    return `last ${t.last} bid ${t.bid} ask ${t.ask}`;
  });
  await call('fetchTickers', () => pub.fetchTickers(), (ts) => {
    expect(ts[SYMBOL] && ts[SYMBOL].last === px, `${SYMBOL} missing or last wrong`);
    return `${Object.keys(ts).length} tickers`;
  });
  await call('fetchOrderBook', () => pub.fetchOrderBook(SYMBOL, 10), (ob) => {
    expect(ob.bids.length > 0 && ob.asks.length > 0, `bids ${ob.bids.length} asks ${ob.asks.length}`);
    expect(ob.bids[0][0] === 10000 && ob.asks[0][0] === 90000, `best ${ob.bids[0]} / ${ob.asks[0]}`);
    return `best bid ${ob.bids[0]} ask ${ob.asks[0]}`;
  });
  await call('fetchOHLCV', () => pub.fetchOHLCV(SYMBOL, '1m', undefined, 10), (c) => {
    expect(c.length > 0, 'no candles');
    const last = c[c.length - 1];
    expect(last[4] === px && num(last[0]), `last candle ${JSON.stringify(last)}`);
    return `${c.length} candles, last ${JSON.stringify(last)}`;
  });
  await call('fetchTrades', () => pub.fetchTrades(SYMBOL, undefined, 10), (ts) => {
    expect(ts.length > 0, 'no trades');
    const t = ts[ts.length - 1];
    expect(t.price === px && t.amount === qty && num(t.timestamp) && t.side, `trade ${JSON.stringify([t.price, t.amount, t.timestamp, t.side])}`);
    return `${ts.length} trades, last ${t.side} ${t.amount} @ ${t.price}`;
  });

  await call('fetchBalance (trading)', () => a.fetchBalance(), (bal) => {
    expect(bal.BTC && bal.BTC.total > 0, `BTC ${JSON.stringify(bal.BTC)}`);
    expect(bal.USDT && bal.USDT.used > 0, `USDT used ${bal.USDT && bal.USDT.used} (a buy rests)`);
    return `BTC ${bal.BTC.free}/${bal.BTC.used}, USDT ${bal.USDT.free}/${bal.USDT.used}`;
  });
  await call('fetchBalance (main)', () => a.fetchBalance({ type: 'main' }), (bal) => {
    expect(bal.BTC && bal.BTC.total > 0, `BTC ${JSON.stringify(bal.BTC)}`);
    return `BTC ${bal.BTC.free}/${bal.BTC.used}`;
  });
  await call('fetchTradingFee', () => a.fetchTradingFee(SYMBOL), (f) => {
    expect(num(f.maker) && num(f.taker), JSON.stringify(f));
    return `maker ${f.maker} taker ${f.taker}`;
  });

  if (rest) {
    await readRestingOrder(a, SYMBOL, rest.id);
    const edited = await call('editOrder', () => a.editOrder(rest.id, SYMBOL, 'limit', 'buy', qty * 2, 11000), (o) => {
      expect(o.price === 11000 && o.amount === qty * 2, `price ${o.price} amount ${o.amount}`);
      return `${o.id} price ${o.price} amount ${o.amount}`;
    });
    await call('cancelOrder', () => a.cancelOrder(edited ? edited.id : rest.id, SYMBOL), (o) => {
      expect(o.status === 'canceled', `status ${o.status}`);
      return `${o.id} ${o.status}`;
    });
  }
  await call('fetchClosedOrders', () => a.fetchClosedOrders(SYMBOL), (os) => {
    expect(taker && os.some((o) => o.id === taker.id && o.status === 'closed'), `filled order not among ${os.length}`);
    expect(os.some((o) => o.status === 'canceled'), `no canceled order among ${os.length}`);
    return `${os.length} closed/canceled`;
  });
  await call('fetchMyTrades', () => a.fetchMyTrades(SYMBOL), (ts) => {
    const t = taker && ts.find((x) => x.order === taker.id || (x.info && x.info.clientOrderId === taker.id));
    expect(t, `no trade of the filled order among ${ts.length}`);
    expect(t.price === px && t.amount === qty && t.side === 'buy' && t.fee && num(t.fee.cost), `trade ${JSON.stringify([t.price, t.amount, t.side, t.fee])}`);
    return `${ts.length} trades, ${t.side} ${t.amount} @ ${t.price} fee ${t.fee.cost} ${t.fee.currency}`;
  });
  if (taker) {
    await call('fetchOrderTrades', () => a.fetchOrderTrades(taker.info.id, SYMBOL), (ts) => {
      expect(ts.length > 0, 'no trades');
      return `${ts.length} trades`;
    });
  }

  await call('fetchDepositAddress', () => a.fetchDepositAddress('BTC'), (d) => {
    expect(d.address, `address ${d.address}`);
    return `${d.currency} ${d.address}`;
  });
  await call('createDepositAddress', () => a.createDepositAddress('ETH'), (d) => {
    expect(d.address, JSON.stringify(d));
    return `${d.currency} ${d.address}`;
  });
  await call('transfer (funding to spot)', () => a.transfer('USDT', 10, 'funding', 'spot'), (t) => {
    expect(t.id, JSON.stringify(t));
    return `${t.id} ${t.amount} ${t.currency}`;
  });
  const payee = await b.fetchDepositAddress('BTC').catch(() => undefined);
  await call('withdraw', () => a.withdraw('BTC', 0.01, payee && payee.address), (tx) => {
    expect(tx.id, JSON.stringify(tx.info));
    return `${tx.id}`;
  });
  await call('fetchDepositsWithdrawals', () => a.fetchDepositsWithdrawals('USDT'), (ts) => {
    expect(Array.isArray(ts), typeof ts);
    return `${ts.length} transactions`;
  });

  // Streams (ccxt pro over /api/2/ws): subscribed before one more trade.
  await call('watchTicker', () => pub.watchTicker(SYMBOL), (t) => {
    expect(t.last === px, `last ${t.last}`);
    return `last ${t.last} bid ${t.bid} ask ${t.ask}`;
  });
  await call('watchOrderBook', () => pub.watchOrderBook(SYMBOL), (ob) => {
    expect(ob.asks.length > 0 && ob.asks[0][0] === 90000, `asks ${JSON.stringify(ob.asks.slice(0, 2))}`);
    return `${ob.bids.length} bids, ${ob.asks.length} asks, best ask ${ob.asks[0]}`;
  });
  await call('watchTrades', () => pub.watchTrades(SYMBOL), (ts) => {
    expect(ts.length > 0 && ts[ts.length - 1].price === px, `${ts.length} trades`);
    return `${ts.length} trades, last ${ts[ts.length - 1].amount} @ ${ts[ts.length - 1].price}`;
  });
  await call('watchOHLCV', () => pub.watchOHLCV(SYMBOL, '1m'), (cs) => {
    expect(cs.length > 0 && cs[cs.length - 1][4] === px, JSON.stringify(cs[cs.length - 1]));
    return `${cs.length} candles, last ${JSON.stringify(cs[cs.length - 1])}`;
  });

  await b.cancelAllOrders(SYMBOL).catch(() => {});
  await a.cancelAllOrders(SYMBOL).catch(() => {});
  await Promise.all([a.close(), b.close(), pub.close()].map((p) => p.catch(() => {})));
}

main().then(finish, crash);
