// ccxt's swap (perpetual futures) calls of the hitbtc class, REST and pro,
// against the emulator's futures family (beyond the contract: the document
// names the endpoints, the emulator serves the real service's shapes).
// Two accounts fund their futures balances from spot, open isolated
// futures accounts with a leverage, trade the contract so that both hold a
// position, then close the position and the accounts and move the funds
// back, leaving nothing behind.
'use strict';

const { call, nextMs, expect, num } = require('./lib');

const PERP = 'BTC/USDT:USDT';

async function checkSwap(a, b, cid) {
  const mk = a.markets[PERP];
  if (!mk) {
    await call('swap markets', () => { throw new Error(`no ${PERP} market`); });
    return;
  }
  const qty = Math.max(mk.limits.amount.min || 0, 0.01);
  const px = 30000;
  const iso = { marginMode: 'isolated' };

  await call('transfer (spot to swap)', () => a.transfer('USDT', 2000, 'spot', 'swap'), (t) => {
    expect(t.id, JSON.stringify(t.info));
    return `${t.id}`;
  });
  await b.transfer('USDT', 2000, 'spot', 'swap');
  await call('fetchBalance (swap)', () => a.fetchBalance({ type: 'swap' }), (bal) => {
    expect(bal.USDT && bal.USDT.free >= 2000, `USDT ${JSON.stringify(bal.USDT)}`);
    return `USDT ${bal.USDT.free}/${bal.USDT.used}`;
  });
  await call('fetchMarginModes (swap)', () => a.fetchMarginModes([PERP]), (m) => {
    expect(m[PERP] && m[PERP].marginMode, JSON.stringify(m));
    return `${PERP} ${m[PERP].marginMode}`;
  });
  await call('setLeverage', () => a.setLeverage(10, PERP, { margin_balance: 500 }), (r) => {
    expect(r.leverage === '10' && r.symbol === mk.id, JSON.stringify(r));
    return `${r.symbol} leverage ${r.leverage} margin ${r.currencies[0].margin_balance}`;
  });
  await call('fetchLeverage (swap)', () => a.fetchLeverage(PERP), (l) => {
    expect(l.longLeverage === 10, JSON.stringify(l));
    return `${l.marginMode} ${l.longLeverage}`;
  });
  await call('addMargin (swap)', () => a.addMargin(PERP, 1000, { leverage: 10 }), (r) => {
    expect(r.amount === 1000 && r.code === 'USDT', JSON.stringify(r));
    return `${r.symbol} ${r.amount} ${r.code}`;
  });
  await b.setLeverage(10, PERP, { margin_balance: 1000 });
  await call('fetchTradingFee (swap)', () => a.fetchTradingFee(PERP), (f) => {
    expect(num(f.maker) && num(f.taker), JSON.stringify(f));
    return `maker ${f.maker} taker ${f.taker}`;
  });
  await call('fetchTradingFees (swap)', () => a.fetchTradingFees({ type: 'swap' }), (f) => {
    expect(f[PERP], Object.keys(f).join(','));
    return `${Object.keys(f).length} contracts`;
  });

  // A trade: B sells, A buys, so A is long and B short.
  await call('createOrder (swap, B sells)', () => b.createOrder(PERP, 'limit', 'sell', qty, px, { ...iso, client_order_id: cid('fs1') }), (o) => {
    expect(o.status === 'open' && o.symbol === PERP, `${o.status} ${o.symbol}`);
    return `${o.id} ${o.status}`;
  });
  await call('createOrder (swap, A buys, crosses)', () => a.createOrder(PERP, 'limit', 'buy', qty, px, { ...iso, client_order_id: cid('fb1') }), (o) => {
    expect(o.status === 'closed' && o.filled === qty, `${o.status} filled ${o.filled}`);
    return `${o.id} ${o.status} filled ${o.filled}`;
  });
  await call('fetchPositions (swap)', () => a.fetchPositions(), (ps) => {
    const p = ps.find((x) => x.symbol === PERP);
    expect(p && p.contracts === qty && p.entryPrice === px && p.leverage === 10, JSON.stringify(ps.map((x) => [x.symbol, x.contracts, x.entryPrice, x.leverage])));
    return `${ps.length} positions, ${p.contracts} @ ${p.entryPrice} collateral ${p.collateral}`;
  });
  await call('fetchPosition (swap)', () => a.fetchPosition(PERP, { type: 'swap' }), (p) => {
    expect(p.contracts === qty && p.marginMode === 'isolated', JSON.stringify([p.contracts, p.marginMode]));
    return `${p.contracts} ${p.marginMode} liquidation ${p.liquidationPrice}`;
  });
  await call('fetchFundingRate', () => a.fetchFundingRate(PERP), (r) => {
    expect(r.markPrice === px && num(r.fundingRate) && num(r.fundingTimestamp), JSON.stringify([r.markPrice, r.fundingRate, r.fundingDatetime]));
    return `mark ${r.markPrice} rate ${r.fundingRate} next ${r.fundingDatetime}`;
  });
  await call('fetchFundingRates', () => a.fetchFundingRates([PERP]), (rs) => {
    expect(rs[PERP], Object.keys(rs).join(','));
    return `${Object.keys(rs).length} contracts`;
  });
  await call('fetchFundingRateHistory', () => a.fetchFundingRateHistory(PERP), (h) => `${h.length} entries`);
  await call('fetchOpenInterest', () => a.fetchOpenInterest(PERP), (oi) => {
    expect(oi.openInterestValue === qty, JSON.stringify(oi.info));
    return `${oi.openInterestValue}`;
  });

  // A resting order: read, edit, cancel.
  const rest = await call('createOrder (swap, resting)', () => a.createOrder(PERP, 'limit', 'buy', qty, 10000, { ...iso, client_order_id: cid('fr1') }), (o) => {
    expect(o.status === 'open', o.status);
    return `${o.id} ${o.status}`;
  });
  if (rest) {
    await call('fetchOpenOrders (swap)', () => a.fetchOpenOrders(PERP), (os) => {
      expect(os.some((o) => o.id === rest.id), `${os.length} open`);
      return `${os.length} open`;
    });
    await call('fetchOpenOrder (swap)', () => a.fetchOpenOrder(rest.id, PERP), (o) => `${o.id} ${o.status}`);
    await call('fetchOrder (swap)', () => a.fetchOrder(rest.id, PERP), (o) => {
      expect(o.id === rest.id && o.status === 'open', `${o.id} ${o.status}`);
      return `${o.id} ${o.status}`;
    });
    const edited = await call('editOrder (swap)', () => a.editOrder(rest.id, PERP, 'limit', 'buy', qty * 2, 11000, { new_client_order_id: cid('fe1') }), (o) => {
      expect(o.price === 11000 && o.amount === qty * 2, `${o.price} ${o.amount}`);
      return `${o.id} price ${o.price} amount ${o.amount}`;
    });
    await call('cancelOrder (swap)', () => a.cancelOrder(edited ? edited.id : rest.id, PERP), (o) => {
      expect(o.status === 'canceled', o.status);
      return `${o.id} ${o.status}`;
    });
  }
  await call('fetchClosedOrders (swap)', () => a.fetchClosedOrders(PERP), (os) => {
    expect(os.some((o) => o.id === cid('fb1')), `${os.length} closed`);
    return `${os.length} closed/canceled`;
  });
  await call('fetchMyTrades (swap)', () => a.fetchMyTrades(PERP), (ts) => {
    const t = ts.find((x) => x.order === cid('fb1'));
    expect(t && t.price === px && t.amount === qty, `${ts.length} trades`);
    return `${ts.length} trades, ${t.side} ${t.amount} @ ${t.price} fee ${t.fee.cost} ${t.fee.currency}`;
  });

  // ccxt pro over the trading stream's futures_ methods.
  await call('watchBalance (swap)', () => a.watchBalance({ type: 'swap' }), (bal) => {
    expect(bal.USDT && num(bal.USDT.free), JSON.stringify(bal.USDT));
    return `USDT ${bal.USDT.free}/${bal.USDT.used}`;
  });
  const wsOrder = await call('createOrderWs (swap)', () => nextMs().then(() => a.createOrderWs(PERP, 'limit', 'buy', qty, 10000, { ...iso, client_order_id: cid('fw1') })), (o) => {
    expect(o.clientOrderId === cid('fw1') && o.status === 'open', `${o.clientOrderId} ${o.status}`);
    return `${o.clientOrderId} ${o.status}`;
  });
  await call('fetchOpenOrdersWs (swap)', () => nextMs().then(() => a.fetchOpenOrdersWs(PERP)), (os) => {
    expect(os.some((o) => o.clientOrderId === cid('fw1')), `${os.length} open`);
    return `${os.length} open`;
  });
  if (wsOrder) {
    await call('cancelOrderWs (swap)', () => nextMs().then(() => a.cancelOrderWs(wsOrder.clientOrderId, PERP)), (o) => {
      expect(o.status === 'canceled', o.status);
      return `${o.status}`;
    });
  }
  await call('cancelAllOrdersWs (swap)', () => nextMs().then(() => a.cancelAllOrdersWs(PERP)), (os) => `${os.length} canceled`);

  // Close: B bids, A's position closes into it (a market order).
  await b.createOrder(PERP, 'limit', 'buy', qty, px, { ...iso, client_order_id: cid('fbb') });
  await call('closePosition', () => a.closePosition(PERP, undefined, iso), (o) => {
    expect(o.info && o.info.symbol === mk.id, JSON.stringify(o.info));
    return `${o.info.symbol} ${o.info.quantity}`;
  });
  await call('fetchPositions (swap, after the close)', () => a.fetchPositions(), (ps) => {
    expect(!ps.some((p) => p.symbol === PERP && p.contracts), JSON.stringify(ps.map((p) => [p.symbol, p.contracts])));
    return `${ps.length} accounts, no ${PERP} position`;
  });
  await call('cancelAllOrders (swap)', () => a.cancelAllOrders(PERP), (os) => `${os.length} canceled`);
  await b.cancelAllOrders(PERP).catch(() => {});
  await call('reduceMargin (swap, close the account)', () => a.reduceMargin(PERP, 0, { leverage: 10 }), (r) => `${r.symbol} ${r.code}`);
  await b.reduceMargin(PERP, 0, { leverage: 10 }).catch(() => {});
  for (const [ex, name] of [[a, 'A'], [b, 'B']]) {
    const bal = await ex.fetchBalance({ type: 'swap' });
    const free = bal.USDT ? bal.USDT.free : 0;
    if (free > 0) {
      await call(`transfer (swap to spot, ${name})`, () => ex.transfer('USDT', free, 'swap', 'spot'), (t) => `${t.id} ${free} USDT`);
    }
  }
}

module.exports = { checkSwap };
