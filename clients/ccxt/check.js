#!/usr/bin/env node
// Runs ccxt's hitbtc class (REST and pro), unchanged, against a conform
// emulator (or a sandbox) given by base URL alone, and prints one line per
// unified call: "ok <call>: <what came back>" or "FAIL <call>: <reason>".
// Exit status 1 when any call failed.
//
// usage: node check.js http://127.0.0.1:PORT
// keys: CCXT_KEY_A and CCXT_KEY_B ("api_key:secret", two accounts with
// trading rights and BTC and USDT balances); by default the first two
// accounts' full keys of ../../fixtures/accounts.json (the emulator's).
'use strict';

const ccxt = require('ccxt');
const { CALL_TIMEOUT_MS, keysFromEnvOrFixtures, call, nextMs, expect, num, finish, crash, baseFromArgs, readRestingOrder } = require('./lib');
const { checkSwap } = require('./swap');

const SYMBOL = 'BTC/USDT';

// exchange builds a ccxt hitbtc (pro, which has every REST method too)
// whose every address is under base: only the base URL changes.
async function exchange(base, creds) {
  const ws = base.replace(/^http/, 'ws');
  const ex = new ccxt.pro.hitbtc({ ...creds, timeout: CALL_TIMEOUT_MS, enableRateLimit: false });
  ex.urls.api = {
    public: `${base}/api/3`,
    private: `${base}/api/3`,
    ws: { public: `${ws}/api/3/ws/public`, private: `${ws}/api/3/ws/trading` },
  };
  // ccxt opens a plain ws:// address only through node's http agent.
  if (ws.startsWith('ws://')) await ex.loadHttpProxyAgent();
  return ex;
}

async function main() {
  const base = baseFromArgs();
  const [ka, kb] = keysFromEnvOrFixtures();
  const a = await exchange(base, ka);
  const b = await exchange(base, kb);
  const pub = await exchange(base, {});
  const tag = Date.now().toString(36);
  const cid = (s) => `ccxt${s}${tag}`.slice(0, 32);

  // Market and reference data.
  const markets = await call('loadMarkets', () => a.loadMarkets(), (m) => {
    const mk = m[SYMBOL];
    expect(mk, `no ${SYMBOL} among ${Object.keys(m).length} markets`);
    expect(num(mk.precision.price) && num(mk.precision.amount), `precision not parsed: ${JSON.stringify(mk.precision)}`);
    expect(num(mk.maker) && num(mk.taker), `fees not parsed: maker ${mk.maker} taker ${mk.taker}`);
    return `${Object.keys(m).length} markets, ${SYMBOL} price step ${mk.precision.price}, amount step ${mk.precision.amount}`;
  });
  if (!markets) return;
  await b.loadMarkets();
  await pub.loadMarkets();
  await call('fetchCurrencies', () => a.fetchCurrencies(), (c) => {
    expect(c.BTC && c.USDT, 'BTC or USDT missing');
    expect(Object.keys(c.BTC.networks || {}).length > 0, 'BTC has no networks');
    return `${Object.keys(c).length} currencies, BTC networks ${Object.keys(c.BTC.networks).join(',')}`;
  });

  // A trade between the two accounts, so the market has a price.
  const mk = markets[SYMBOL];
  const qty = Math.max(mk.limits.amount.min || 0, 0.001);
  const px = 30000;
  await call('createOrder (B sells, limit)', () => b.createOrder(SYMBOL, 'limit', 'sell', qty, px, { client_order_id: cid('s1') }),
    (o) => { expect(o.id && o.status === 'open', `status ${o.status}`); return `${o.id} ${o.status}`; });
  await call('createOrder (A buys, crosses)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, px, { client_order_id: cid('b1') }),
    (o) => { expect(o.filled === qty && o.status === 'closed', `filled ${o.filled} status ${o.status}`); return `${o.id} ${o.status} filled ${o.filled}`; });
  // Resting orders on both sides so the book has depth.
  const restBuy = await call('createOrder (A buys, far below)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000, { client_order_id: cid('r1') }),
    (o) => { expect(o.status === 'open' && o.price === 10000 && o.amount === qty, `${o.status} ${o.price} ${o.amount}`); return `${o.id} ${o.status}`; });
  const restSell = await call('createOrder (B sells, far above)', () => b.createOrder(SYMBOL, 'limit', 'sell', qty, 90000, { client_order_id: cid('r2') }),
    (o) => { expect(o.status === 'open', o.status); return `${o.id} ${o.status}`; });

  await call('fetchTicker', () => pub.fetchTicker(SYMBOL), (t) => {
    expect(t.last === px, `last ${t.last}, want ${px}`);
    expect(t.bid === 10000 && t.ask === 90000, `bid ${t.bid} ask ${t.ask}`);
    return `last ${t.last} bid ${t.bid} ask ${t.ask} baseVolume ${t.baseVolume}`;
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
  await call('fetchOrderBooks', () => pub.fetchOrderBooks([SYMBOL, 'ETH/BTC'], 5), (obs) => {
    expect(obs[SYMBOL] && obs[SYMBOL].asks.length > 0, Object.keys(obs).join(','));
    return `${Object.keys(obs).length} books`;
  });
  await call('fetchOHLCV', () => pub.fetchOHLCV(SYMBOL, '1m', undefined, 10), (c) => {
    expect(c.length > 0, 'no candles');
    const last = c[c.length - 1];
    expect(last.length === 6 && last[4] === px, `last candle ${JSON.stringify(last)}`);
    return `${c.length} candles, last ${JSON.stringify(last)}`;
  });
  await call('fetchPremiumIndexOHLCV (perpetual)', () => pub.fetchPremiumIndexOHLCV('BTC/USDT:USDT', '1h', undefined, 5), (c) => {
    expect(c.length > 0 && num(c[0][0]) && num(c[0][4]), `${c.length} candles ${JSON.stringify(c[0])}`);
    return `${c.length} candles`;
  });
  await call('fetchTrades', () => pub.fetchTrades(SYMBOL, undefined, 10), (ts) => {
    expect(ts.length > 0, 'no trades');
    const t = ts[ts.length - 1];
    expect(t.price === px && t.amount === qty && num(t.timestamp) && t.side, `trade ${JSON.stringify([t.price, t.amount, t.timestamp, t.side])}`);
    return `${ts.length} trades, last ${t.side} ${t.amount} @ ${t.price}`;
  });

  // Account.
  await call('fetchBalance', () => a.fetchBalance(), (bal) => {
    expect(num(bal.BTC && bal.BTC.total) && bal.BTC.total > 0, `BTC ${JSON.stringify(bal.BTC)}`);
    expect(bal.USDT && bal.USDT.used > 0, `USDT used ${bal.USDT && bal.USDT.used} (a buy rests)`);
    return `BTC ${bal.BTC.free}/${bal.BTC.used}, USDT ${bal.USDT.free}/${bal.USDT.used}`;
  });
  await call('fetchTradingFees', () => a.fetchTradingFees(), (f) => {
    expect(f[SYMBOL] && num(f[SYMBOL].maker) && num(f[SYMBOL].taker), `${SYMBOL} fee ${JSON.stringify(f[SYMBOL])}`);
    return `${Object.keys(f).length} symbols, ${SYMBOL} maker ${f[SYMBOL].maker} taker ${f[SYMBOL].taker}`;
  });
  await call('fetchTradingFee', () => a.fetchTradingFee(SYMBOL), (f) => {
    expect(num(f.maker) && num(f.taker), JSON.stringify(f));
    return `maker ${f.maker} taker ${f.taker}`;
  });

  // Orders.
  if (restBuy) {
    await readRestingOrder(a, SYMBOL, restBuy.id);
    const edited = await call('editOrder', () => a.editOrder(restBuy.id, SYMBOL, 'limit', 'buy', qty * 2, 11000, { new_client_order_id: cid('e1') }), (o) => {
      expect(o.price === 11000 && o.amount === qty * 2, `price ${o.price} amount ${o.amount}`);
      return `${o.id} price ${o.price} amount ${o.amount}`;
    });
    const id = edited ? edited.id : restBuy.id;
    await call('cancelOrder', () => a.cancelOrder(id, SYMBOL), (o) => {
      expect(o.status === 'canceled', `status ${o.status}`);
      return `${o.id} ${o.status}`;
    });
  }
  // Sent without a client_order_id, as most callers do: ccxt takes the one the
  // exchange generates as the order's id, and fetches and cancels by it.
  const gen = await call('createOrder (no client_order_id)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000), (o) => {
    expect(/^[0-9A-Za-z_-]{8,32}$/.test(o.id || ''), `id ${o.id}`);
    return `${o.id} ${o.status}`;
  });
  if (gen) {
    await call('fetchOrder (generated id)', () => a.fetchOrder(gen.id, SYMBOL), (o) => {
      expect(o.id === gen.id && o.status === 'open', `${o.id} ${o.status}`);
      return `${o.id} ${o.status}`;
    });
    await call('cancelOrder (generated id)', () => a.cancelOrder(gen.id, SYMBOL), (o) => {
      expect(o.id === gen.id && o.status === 'canceled', `${o.id} ${o.status}`);
      return `${o.id} ${o.status}`;
    });
  }
  await call('fetchClosedOrders', () => a.fetchClosedOrders(SYMBOL), (os) => {
    expect(os.some((o) => o.id === cid('b1') && o.status === 'closed'), `filled ${cid('b1')} not among ${os.length}`);
    expect(os.some((o) => o.status === 'canceled'), `no canceled order among ${os.length}`);
    return `${os.length} closed/canceled`;
  });
  await call('fetchMyTrades', () => a.fetchMyTrades(SYMBOL), (ts) => {
    const t = ts.find((x) => x.order === cid('b1'));
    expect(t, `no trade of ${cid('b1')} among ${ts.length}`);
    expect(t.price === px && t.amount === qty && t.side === 'buy' && t.fee && num(t.fee.cost), `trade ${JSON.stringify([t.price, t.amount, t.side, t.fee])}`);
    return `${ts.length} trades, ${t.side} ${t.amount} @ ${t.price} fee ${t.fee.cost} ${t.fee.currency} ${t.takerOrMaker}`;
  });
  await call('fetchOrderTrades', () => a.fetchOrderTrades(cid('b1'), SYMBOL), (ts) => {
    expect(ts.length > 0, 'no trades');
    return `${ts.length} trades`;
  });
  await call('createOrder (A, to cancel all)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000, { client_order_id: cid('c1') }), (o) => `${o.id} ${o.status}`);
  await call('cancelAllOrders', () => a.cancelAllOrders(SYMBOL), (os) => {
    expect(os.length > 0 && os.every((o) => o.status === 'canceled'), `${os.length} orders ${os.map((o) => o.status)}`);
    return `${os.length} canceled`;
  });

  // Wallet.
  await call('fetchDepositAddress', () => a.fetchDepositAddress('BTC'), (d) => {
    expect(d.address, `address ${d.address}`);
    return `${d.currency} ${d.address}`;
  });

  await call('createDepositAddress', () => a.createDepositAddress('ETH'), (d) => {
    expect(d.address && d.currency === 'ETH', JSON.stringify(d));
    return `${d.currency} ${d.address}`;
  });
  await call('fetchBalance (funding)', () => a.fetchBalance({ type: 'funding' }), (bal) => {
    expect(bal.BTC && bal.BTC.total > 0, `BTC ${JSON.stringify(bal.BTC)}`);
    return `BTC ${bal.BTC.free}/${bal.BTC.used}`;
  });
  await call('transfer (funding to spot)', () => a.transfer('USDT', 10, 'funding', 'spot'), (t) => {
    expect(t.id, JSON.stringify(t.info));
    return `${t.id} ${t.currency}`;
  });
  const payee = await b.fetchDepositAddress('BTC').catch(() => undefined);
  await call('withdraw', () => a.withdraw('BTC', 0.01, payee && payee.address), (tx) => {
    expect(tx.id, JSON.stringify(tx.info));
    return `${tx.id}`;
  });
  await call('fetchWithdrawals', () => a.fetchWithdrawals('BTC'), (ts) => {
    expect(ts.some((x) => x.type === 'withdrawal' && x.amount === 0.01), `${ts.length} withdrawals`);
    return `${ts.length} withdrawals, latest ${ts[ts.length - 1].amount} ${ts[ts.length - 1].currency} ${ts[ts.length - 1].status}`;
  });
  await call('fetchDepositsWithdrawals', () => a.fetchDepositsWithdrawals('USDT'), (ts) => {
    expect(Array.isArray(ts), typeof ts);
    return `${ts.length} transactions${ts.length ? `, latest ${ts[0].type} ${ts[0].amount} ${ts[0].currency} ${ts[0].status}` : ''}`;
  });
  await call('fetchDepositWithdrawFees', () => a.fetchDepositWithdrawFees(['BTC']), (f) => {
    expect(f.BTC, Object.keys(f).join(','));
    return `BTC withdraw fee ${f.BTC.withdraw.fee}`;
  });

  // Margin.
  await call('fetchMarginModes', () => a.fetchMarginModes([SYMBOL], { type: 'margin' }), (m) => {
    expect(m[SYMBOL] && m[SYMBOL].marginMode, JSON.stringify(m));
    return `${SYMBOL} ${m[SYMBOL].marginMode}`;
  });
  await call('addMargin', () => a.addMargin(SYMBOL, 1000), (r) => {
    expect(r.amount === 1000, JSON.stringify(r));
    return `${r.symbol} +${r.amount} ${r.code} ${r.status}`;
  });
  await call('fetchLeverage', () => a.fetchLeverage(SYMBOL), (l) => `${l.marginMode} long ${l.longLeverage} short ${l.shortLeverage}`);
  const mo = await call('createOrder (isolated margin)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000, { marginMode: 'isolated', client_order_id: cid('m1') }), (o) => {
    expect(o.status === 'open', o.status);
    return `${o.id} ${o.status}`;
  });
  await call('fetchOpenOrders (margin)', () => a.fetchOpenOrders(SYMBOL, undefined, undefined, { marginMode: 'isolated' }), (os) => {
    expect(mo && os.some((o) => o.id === mo.id), `margin order not among ${os.length}`);
    return `${os.length} open`;
  });
  await call('fetchPositions', () => a.fetchPositions(undefined, { marginMode: 'isolated' }), (ps) => `${ps.length} positions`);
  await call('cancelAllOrders (margin)', () => a.cancelAllOrders(SYMBOL, { marginMode: 'isolated' }), (os) => `${os.length} canceled`);
  await call('reduceMargin (close the account)', () => a.reduceMargin(SYMBOL, 0), (r) => `${r.symbol} ${r.type} ${r.status}`);

  // Swap (perpetual futures), REST and pro: see swap.js.
  await checkSwap(a, b, cid);

  // Streams (ccxt pro).
  await call('watchTicker', () => pub.watchTicker(SYMBOL), (t) => {
    expect(t.last === px, `last ${t.last}`);
    return `last ${t.last} bid ${t.bid} ask ${t.ask}`;
  });
  await call('watchTickers', () => pub.watchTickers([SYMBOL]), (ts) => {
    expect(ts[SYMBOL], Object.keys(ts).join(','));
    return `${Object.keys(ts).length} tickers`;
  });
  await call('watchOrderBook', () => pub.watchOrderBook(SYMBOL), (ob) => {
    expect(ob.asks.length > 0 && ob.asks[0][0] === 90000, `asks ${JSON.stringify(ob.asks.slice(0, 2))}`);
    return `${ob.bids.length} bids, ${ob.asks.length} asks, best ask ${ob.asks[0]}`;
  });
  await call('watchBidsAsks', () => pub.watchBidsAsks([SYMBOL]), (ts) => {
    expect(ts[SYMBOL] && ts[SYMBOL].ask === 90000, JSON.stringify(ts[SYMBOL] && [ts[SYMBOL].bid, ts[SYMBOL].ask]));
    return `${SYMBOL} ask ${ts[SYMBOL].ask}`;
  });
  const tradesSeen = pub.watchTrades(SYMBOL);
  const candlesSeen = pub.watchOHLCV(SYMBOL, '1m');
  // ws private: the two accounts trade once more while watched.
  await call('watchBalance', () => a.watchBalance(), (bal) => {
    expect(bal.BTC && bal.BTC.total > 0, JSON.stringify(bal.BTC));
    return `BTC ${bal.BTC.free}/${bal.BTC.used}`;
  });
  // watchOrders() without a symbol: ccxt resolves the per-symbol future
  // under the lower-cased market id (safeStringLower2), which no unified
  // symbol matches, on the real service too.
  const ordersSeen = a.watchOrders();
  const wsOrder = await call('createOrderWs', () => nextMs().then(() => a.createOrderWs(SYMBOL, 'limit', 'buy', qty, 10000, { client_order_id: cid('w1') })), (o) => {
    // ccxt pro's order id is the service's numeric id; REST's is client_order_id.
    expect(o.clientOrderId === cid('w1') && o.status === 'open', `${o.clientOrderId} ${o.status}`);
    return `${o.clientOrderId} ${o.status}`;
  });
  await call('watchOrders', () => ordersSeen, (os) => {
    expect(os.length > 0 && os.some((o) => o.clientOrderId === cid('w1')), `${os.length} orders`);
    return `${os.length} order updates`;
  });
  await call('fetchOpenOrdersWs', () => nextMs().then(() => a.fetchOpenOrdersWs(SYMBOL)), (os) => {
    expect(os.some((o) => o.clientOrderId === cid('w1')), `${os.length} open`);
    return `${os.length} open`;
  });
  if (wsOrder) {
    await call('cancelOrderWs', () => nextMs().then(() => a.cancelOrderWs(wsOrder.clientOrderId)), (o) => {
      expect(o.status === 'canceled', o.status);
      return `${o.id} ${o.status}`;
    });
  }
  await call('createOrderWs (to cancel all)', () => nextMs().then(() => a.createOrderWs(SYMBOL, 'limit', 'buy', qty, 10000, { client_order_id: cid('w2') })), (o) => `${o.id} ${o.status}`);
  await call('cancelAllOrdersWs', () => nextMs().then(() => a.cancelAllOrdersWs(SYMBOL)), (os) => {
    expect(os.length > 0 && os.every((o) => o.status === 'canceled'), `${os.length} ${os.map((o) => o.status)}`);
    return `${os.length} canceled`;
  });
  await b.createOrder(SYMBOL, 'limit', 'sell', qty, px, { client_order_id: cid('s2') }).catch(() => {});
  await a.createOrder(SYMBOL, 'limit', 'buy', qty, px, { client_order_id: cid('b2') }).catch(() => {});
  await call('watchTrades', () => tradesSeen, (ts) => {
    expect(ts.length > 0 && ts[ts.length - 1].price === px, `${ts.length} trades`);
    return `${ts.length} trades, last ${ts[ts.length - 1].amount} @ ${ts[ts.length - 1].price}`;
  });
  await call('watchOHLCV', () => candlesSeen, (cs) => {
    expect(cs.length > 0 && cs[cs.length - 1][4] === px, JSON.stringify(cs[cs.length - 1]));
    return `${cs.length} candles, last ${JSON.stringify(cs[cs.length - 1])}`;
  });

  // More order types: a stop-limit parked until the price reaches it, a
  // post-only order, and a market order that takes the resting ask.
  await call('createOrder (stop-limit, triggerPrice)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 95000, { triggerPrice: 95000, client_order_id: cid('t1') }), (o) => {
    expect(o.status === 'open' && o.triggerPrice === 95000, `status ${o.status} triggerPrice ${o.triggerPrice}`);
    return `${o.id} ${o.type} ${o.status} trigger ${o.triggerPrice}`;
  });
  await call('createOrder (postOnly)', () => a.createOrder(SYMBOL, 'limit', 'buy', qty, 10000, { postOnly: true, client_order_id: cid('p1') }), (o) => {
    expect(o.status === 'open' && o.postOnly === true, `status ${o.status} postOnly ${o.postOnly}`);
    return `${o.id} ${o.status} postOnly`;
  });
  await call('createOrder (market buy)', () => a.createOrder(SYMBOL, 'market', 'buy', qty), (o) => {
    expect(o.status === 'closed' && o.filled === qty, `status ${o.status} filled ${o.filled}`);
    return `${o.id} ${o.status} filled ${o.filled} average ${o.average}`;
  });

  // Leave nothing resting.
  await b.cancelAllOrders(SYMBOL).catch(() => {});
  await a.cancelAllOrders(SYMBOL).catch(() => {});
  await Promise.all([a.close(), b.close(), pub.close()].map((p) => p.catch(() => {})));
  void restSell;
}

main().then(finish, crash);
