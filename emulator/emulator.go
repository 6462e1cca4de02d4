// Package emulator is a reference implementation of the documented exchange
// API, to be used as a conformance target and by other projects' tests:
//
//	emu, err := emulator.New(emulator.Options{})
//	if err != nil { ... }
//	if err := emu.Start(); err != nil { ... }
//	defer emu.Close()
//	client := myexchange.New(emu.URL())
//
// It serves version 3 under /api/3, the version 2 JSON-RPC streams under
// /api/2/ws and, when ControlPlane is set, a control plane under /_conform
// (reset, fund, clock) for emulator-only specs.
package emulator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	v2 "github.com/conform-harness/conform/emulator/internal/api/v2"
	v3 "github.com/conform-harness/conform/emulator/internal/api/v3"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/buycrypto"
	"github.com/conform-harness/conform/emulator/internal/control"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
	"github.com/conform-harness/conform/emulator/internal/jsonrpc"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/limits"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/stream"
	"github.com/conform-harness/conform/emulator/internal/subaccount"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/conform-harness/conform/emulator/internal/wallet"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// Options configure an emulator. The zero value is a working emulator on a
// free loopback port with no faults and no control plane.
type Options struct {
	// Addr is the listen address; default 127.0.0.1:0 (a free port).
	Addr string
	// Faults are rule IDs whose fault switches are on (see conform mutate --list).
	Faults []string
	// ControlPlane serves /_conform/{info,reset,fund,clock}, to loopback
	// peers only unless ControlToken is set.
	ControlPlane bool
	// ControlToken, when set, opens the control plane to peers anywhere
	// that present it (Authorization: Bearer <token> or X-Conform-Token)
	// and closes it to every peer that does not, loopback included.
	ControlToken string
	// Clock is the time source; default the wall clock (movable through
	// the control plane).
	Clock clock.Clock
	// Logger receives request failures; default discards.
	Logger *slog.Logger
	// NoLimits switches off the rate limits and the WebSocket connection
	// cap of the v3 Limits section, for capacity runs of the emulator
	// itself. The zero value keeps them on, as documented.
	NoLimits bool
	// Accounts replaces the fixture accounts (keys, rights, opening
	// balances, and sub-accounts with their own keys and balances); nil
	// means fixtures.Accounts().
	Accounts []fixtures.Account
	// Providers replaces the fixture crypto-purchase providers (methods,
	// limits, currencies, spot prices); nil means fixtures.Providers().
	Providers []fixtures.Provider
	// PingInterval is how often the streams ping each connection; default
	// 30s, as documented.
	PingInterval time.Duration
	// Retention bounds the order and trade history kept per account, so
	// that memory stays flat on long runs; zero fields take the defaults.
	Retention Retention
	// ReadTimeout bounds the reading of one request, headers and body, so
	// that a client sending a body slowly (or never) cannot hold a
	// connection; default 30s. It starts with the request's first bytes:
	// idle keep-alive connections (load runs) and WebSocket connections,
	// whose deadlines are cleared at the upgrade, are not affected.
	ReadTimeout time.Duration
}

// DefaultReadTimeout is Options.ReadTimeout's default.
const DefaultReadTimeout = 30 * time.Second

// Retention bounds history. Orders without executions leave history after
// 24 hours regardless (as documented); the defaults keep what the history
// endpoints can reach (offset at most 100,000 plus limit at most 1,000).
type Retention struct {
	// Orders is how many final orders each account's history keeps, the
	// newest; default 101,000.
	Orders int
	// Trades is how many trades each account's trade history keeps, the
	// newest; default 101,000.
	Trades int
}

// Emulator is a running (or ready to run) reference exchange.
type Emulator struct {
	opts    Options
	handler http.Handler
	clock   *clock.Offset
	ledger  *ledger.Ledger
	keys    map[string]string // API key -> account
	accts   []fixtures.Account
	faults  *faults.Set
	streams *stream.Server
	engine  *engine.Engine
	subs    *subaccount.Registry
	buy     *buycrypto.Service
	wallet  *wallet.Wallet
	// feed fans the engine's events out to the streams.
	feed *feed.Hub
	// v2streams serves the JSON-RPC streams of API v2 under /api/2/ws.
	v2streams *jsonrpc.Server
	// tape records the public trades and candles the engine makes.
	tape *tape.Tape

	mu       sync.Mutex
	listener net.Listener
	server   *http.Server
}

// New builds an emulator without listening; use Handler to embed it, or
// Start to serve it.
func New(opts Options) (*Emulator, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	fs, err := faults.New(opts.Faults...)
	if err != nil {
		return nil, err
	}
	mkt, err := market.Load(fs)
	if err != nil {
		return nil, fmt.Errorf("emulator: load market fixtures: %w", err)
	}
	accts := opts.Accounts
	if accts == nil {
		if accts, err = fixtures.Accounts(); err != nil {
			return nil, fmt.Errorf("emulator: load account fixtures: %w", err)
		}
	}
	e := &Emulator{opts: opts, clock: clock.NewOffset(opts.Clock), ledger: ledger.New(fs), keys: map[string]string{}, accts: accts, faults: fs}
	var keys []auth.Key
	for _, a := range accts {
		for _, k := range a.Keys {
			keys = append(keys, auth.Key{APIKey: k.APIKey, Secret: k.Secret, Account: a.ID, Rights: k.Rights})
			e.keys[k.APIKey] = a.ID
		}
		// A sub-account is an account of its own: its ledger account is its
		// sub_account_id.
		for _, s := range a.SubAccounts {
			for _, k := range s.Keys {
				keys = append(keys, auth.Key{APIKey: k.APIKey, Secret: k.Secret, Account: s.SubAccountID, Rights: k.Rights})
				e.keys[k.APIKey] = s.SubAccountID
			}
		}
	}
	syms, err := engine.SymbolsFrom(mkt)
	if err != nil {
		return nil, fmt.Errorf("emulator: spot symbols: %w", err)
	}
	mcfg, err := margin.Load(mkt)
	if err != nil {
		return nil, fmt.Errorf("emulator: margin fixtures: %w", err)
	}
	fcfg, err := margin.FuturesConfig(mkt)
	if err != nil {
		return nil, fmt.Errorf("emulator: futures configuration: %w", err)
	}
	e.feed = feed.New()
	e.tape = tape.New(tapePairs(syms))
	e.feed.Tap(tape.Kinds, e.tape.Observe)
	e.engine = engine.New(syms, e.ledger, e.clock, fs, engine.Options{Margin: mcfg.Params(), Futures: engine.FuturesSymbolsFrom(mkt), FuturesMargin: fcfg.Params(), Observer: e.feed,
		Retention: engine.Retention{Orders: opts.Retention.Orders, Trades: opts.Retention.Trades}})
	if e.subs, err = subaccount.New(accts, e.ledger, e.engine, e.clock, fs); err != nil {
		return nil, fmt.Errorf("emulator: sub-accounts: %w", err)
	}
	providers := opts.Providers
	if providers == nil {
		if providers, err = fixtures.Providers(); err != nil {
			return nil, fmt.Errorf("emulator: provider fixtures: %w", err)
		}
	}
	e.buy = buycrypto.New(providers, e.clock, fs)
	var ids []wallet.Identity
	for _, a := range accts {
		ids = append(ids, wallet.Identity{Account: a.ID, Username: a.Username(), Email: a.Email()})
	}
	e.wallet = wallet.New(e.clock, e.ledger, mkt, fs, ids)
	if err := e.Reset(); err != nil {
		return nil, err
	}
	prefix, wsPrefix := v3.Prefix, v3.Prefix
	if fs.On("V3-CONV-ADDRESS") {
		prefix = "/api/v3"
	}
	if fs.On("V3-VERSION-WS-PATHS") {
		wsPrefix = "/api/v3"
	}
	keyStore := e.keyStore(keys)
	v3Router := api.NewRouter(prefix, v3.Routes(v3.Deps{Market: mkt, Ledger: e.ledger, Engine: e.engine, Faults: fs, Clock: e.clock,
		MarginConfig: mcfg.Records(), FuturesConfig: fcfg.Records(), SubAccounts: e.subs, BuyCrypto: e.buy, Tape: e.tape, Wallet: e.wallet}),
		keyStore, fs, opts.Logger)
	// Rate limits and streams. The limiter reads the base clock, not the
	// control plane's movable one: moving business time must not refill
	// the budgets of specs running meanwhile.
	guard := limits.NewGuard(limits.Options{Clock: opts.Clock, Faults: fs, Off: opts.NoLimits})
	v3Router.SetLimiter(guard)
	// The v2 router shares the v3 router's writer and credentials; the v2
	// rules they enforce switch on the same code through aliases.
	v2fs := fs.Alias(v2.SharedFaults())
	v2Prefix := v2.Prefix
	if fs.On("V2-CONV-ADDRESS") {
		v2Prefix = "/api/v2"
	}
	if fs.On("V3-VERSION-V2-AVAILABLE") {
		v2Prefix = "/api/2-retired"
	}
	// The sub-account and buy-crypto families are the same registry and
	// service as version 3's; a frozen sub-account's keys are refused here too.
	v2acc := v2.Accounts{Market: mkt, SubAccounts: e.subs, BuyCrypto: e.buy, Faults: fs}
	v2routes := v2.Routes(v2.Deps{Market: mkt, Ledger: e.ledger, Engine: e.engine, Wallet: e.wallet, Tape: e.tape, Faults: fs, Clock: e.clock})
	v2routes = append(v2routes, v2.SubAccountRoutes(v2acc)...)
	v2routes = append(v2routes, v2.BuyCryptoRoutes(v2acc)...)
	v2Router := api.NewRouter(v2Prefix, v2routes, auth.NewStore(keys, v2fs).WithGate(e.subs), v2fs, opts.Logger)
	v2Router.SetLimiter(guard.V2())
	v2Router.SetMessages(v2.Messages())
	accounts := &stream.Accounts{Login: keyStore.LoginStream, Call: v3Router.Call, Balances: e.wallet.Balances, // the main (wallet) account, as GET /wallet/balance
		Report:  func(o engine.Order, margin bool) any { return v3.OrderReport(o, margin, fs) },
		Updates: stream.HubUpdates{Hub: e.feed}, Usable: keyStore.Usable}
	e.streams = stream.New(stream.Options{Prefix: wsPrefix, PingInterval: opts.PingInterval, Guard: guard, Faults: fs, Logger: opts.Logger,
		Accounts: accounts,
		Market:   &stream.Market{Tape: e.tape, Depth: e.engine.Depth, Feed: e.feed, Clock: e.clock, Currency: mkt.HasCurrency}})
	e.v2streams = jsonrpc.New(jsonrpc.Options{Market: mkt, Engine: e.engine, Ledger: e.ledger, Keys: keyStore, Hub: e.feed,
		Tape: e.tape, Faults: fs, Clock: e.clock, PingInterval: opts.PingInterval, Logger: opts.Logger})
	var ctl http.Handler
	if opts.ControlPlane {
		ctl = &control.Plane{Clock: e.clock, Funder: e, Reset: e, Faults: fs, Token: opts.ControlToken}
	}
	notFound := &api.Writer{Faults: fs}
	// Dispatch by prefix by hand: ServeMux would answer /api/3 with a
	// redirect that has no JSON body.
	e.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, wsPrefix+"/ws/"): // streams stay at /api/3 even under V3-CONV-ADDRESS
			e.streams.ServeHTTP(w, r)
		case p == jsonrpc.Prefix || strings.HasPrefix(p, jsonrpc.Prefix+"/"):
			e.v2streams.ServeHTTP(w, r)
		case strings.HasPrefix(p, prefix+"/"):
			v3Router.ServeHTTP(w, r)
		case strings.HasPrefix(p, v2Prefix+"/"):
			v2Router.ServeHTTP(w, r)
		case ctl != nil && strings.HasPrefix(p, control.Prefix+"/"):
			ctl.ServeHTTP(w, r)
		default:
			notFound.Error(w, r, api.NotFound(r.Method, p))
		}
	})
	return e, nil
}

// Reset drops every order, order list, margin account, trade and purchase
// order and restores every account's balances and every sub-account's
// state to the fixtures.
func (e *Emulator) Reset() error {
	e.subs.Reset()
	e.buy.Reset()
	return e.engine.ResetWith(e.refund)
}

// refund puts the fixture balances back on an empty ledger: each account's
// trading balance, and the same amounts on its wallet (main) balance, where
// they arrive as settled payins.
func (e *Emulator) refund() error {
	e.ledger.Reset()
	e.wallet.Reset()
	for _, a := range e.accts {
		for _, cur := range slices.Sorted(maps.Keys(a.Balances)) {
			amt := a.Balances[cur]
			d, err := decimal.NewFromString(amt)
			if err != nil {
				return fmt.Errorf("emulator: fixture balance %s %s: %w", a.ID, cur, err)
			}
			if err := e.ledger.Credit(a.ID, cur, d); err != nil {
				return fmt.Errorf("emulator: fixture balance: %w", err)
			}
			if err := e.wallet.Payin(a.ID, cur, d); err != nil {
				return fmt.Errorf("emulator: fixture wallet balance: %w", err)
			}
		}
		// A sub-account's opening balance is on its trading balance only.
		for _, sub := range a.SubAccounts {
			if err := e.credit(sub.SubAccountID, sub.Balances); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *Emulator) credit(account string, balances map[string]string) error {
	for _, cur := range slices.Sorted(maps.Keys(balances)) {
		amt := balances[cur]
		d, err := decimal.NewFromString(amt)
		if err != nil {
			return fmt.Errorf("emulator: fixture balance %s %s: %w", account, cur, err)
		}
		if err := e.ledger.Credit(account, cur, d); err != nil {
			return fmt.Errorf("emulator: fixture balance: %w", err)
		}
	}
	return nil
}

// keyStore is the key store of every API version: it refuses the keys of
// frozen and disabled sub-accounts. Streams authenticate their logins
// through it too (auth.Store.Usable is the one "may this account use its
// keys" check).
func (e *Emulator) keyStore(keys []auth.Key) *auth.Store {
	return auth.NewStore(keys, e.faults).WithGate(e.subs)
}

// Fund credits the account owning apiKey (control plane).
func (e *Emulator) Fund(apiKey, currency string, amount decimal.Decimal) error {
	acct, ok := e.keys[apiKey]
	if !ok {
		return fmt.Errorf("no account has API key %q", apiKey)
	}
	return e.ledger.Credit(acct, strings.ToUpper(currency), amount)
}

// Handler returns the emulator as an http.Handler (for httptest).
func (e *Emulator) Handler() http.Handler { return e.handler }

// Start listens on Options.Addr and serves in the background.
func (e *Emulator) Start() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.listener != nil {
		return errors.New("emulator: already started")
	}
	ln, err := net.Listen("tcp", e.opts.Addr)
	if err != nil {
		return fmt.Errorf("emulator: listen on %s: %w", e.opts.Addr, err)
	}
	e.listener = ln
	read := cmp.Or(e.opts.ReadTimeout, DefaultReadTimeout)
	e.server = &http.Server{Handler: e.handler, ReadHeaderTimeout: min(10*time.Second, read), ReadTimeout: read, IdleTimeout: 120 * time.Second,
		ErrorLog: slog.NewLogLogger(e.opts.Logger.Handler(), slog.LevelWarn)}
	go func() { _ = e.server.Serve(ln) }()
	return nil
}

// URL is the base URL (before /api/3), valid after Start.
func (e *Emulator) URL() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.listener == nil {
		return ""
	}
	return "http://" + e.listener.Addr().String()
}

// Close stops serving, ending every stream connection.
func (e *Emulator) Close() error {
	_ = e.v2streams.Close()
	_ = e.streams.Close() // Shutdown does not close hijacked (WebSocket) connections
	e.mu.Lock()
	srv := e.server
	e.mu.Unlock()
	if srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return srv.Shutdown(ctx)
}

// tapePairs are the spot symbols as the market tape knows them.
func tapePairs(syms []engine.Symbol) []tape.Pair {
	out := make([]tape.Pair, 0, len(syms))
	for _, s := range syms {
		out = append(out, tape.Pair{Code: s.Code, Base: s.Base, Quote: s.Quote})
	}
	return out
}
