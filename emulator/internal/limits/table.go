package limits

import (
	"sort"
	"strings"

	"github.com/conform-harness/conform/emulator/faults"
)

// Class is one row of a limit table: what is counted together, its limit,
// and the catalogue rule that states it (whose fault breaks it).
type Class struct {
	// Name identifies the class in keys and messages, e.g. "/public/*".
	Name  string
	Limit Limit
	Rule  string
}

// prefixClass maps path prefixes (relative to /api/3, matched on whole
// segments) to a class.
type prefixClass struct {
	prefixes []string
	class    Class
}

// The tables of the v3 Limits section, as declared there. Paths named on
// one row share one class (one budget): the row is the unit the spec gives
// a rate to (V3-LIMIT-ROW-SHARED records how a target reads it).
func restPerIP() []prefixClass {
	return []prefixClass{
		{[]string{"/public"}, Class{"/public/*", Limit{30, 50}, "V3-LIMIT-IP-PUBLIC"}},
		{[]string{"/wallet"}, Class{"/wallet/*", Limit{10, 10}, "V3-LIMIT-IP-WALLET"}},
		{[]string{"/buy-crypto/provider"}, Class{"/buy-crypto/provider/*", Limit{10, 10}, "V3-LIMIT-IP-BUYCRYPTO-PROVIDER"}},
		{[]string{"/buy-crypto/fiat2crypto"}, Class{"/buy-crypto/fiat2crypto/*", Limit{10, 10}, "V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO"}},
		{[]string{"/spot/order"}, Class{"/spot/order/*", Limit{300, 450}, "V3-LIMIT-IP-SPOT-ORDER"}},
		{[]string{"/margin/order", "/margin/account", "/margin/position"},
			Class{"/margin/{order,account,position}/*", Limit{300, 450}, "V3-LIMIT-IP-MARGIN"}},
		{[]string{"/futures/order", "/futures/account", "/futures/position"},
			Class{"/futures/{order,account,position}/*", Limit{300, 450}, "V3-LIMIT-IP-FUTURES"}},
		{[]string{"/transfer-convert/config"}, Class{"/transfer-convert/config", Limit{10, 10}, "V3-LIMIT-IP-TRANSFER-CONVERT"}},
	}
}

func restDefaultPerIP() Class { return Class{"/* (default)", Limit{20, 30}, "V3-LIMIT-IP-DEFAULT"} }

func restPerAccount() []prefixClass {
	return []prefixClass{
		{[]string{"/wallet", "/transfer-convert/config"}, Class{"account /wallet/* and /transfer-convert/config", Limit{20, 30}, "V3-LIMIT-ACCT-WALLET"}},
		{[]string{"/buy-crypto"}, Class{"account /buy-crypto/*", Limit{20, 30}, "V3-LIMIT-ACCT-BUYCRYPTO"}},
		{[]string{"/sub-account"}, Class{"account /sub-account/*", Limit{20, 30}, "V3-LIMIT-ACCT-SUBACCOUNT"}},
	}
}

// Stream paths, relative to /api/3.
const (
	StreamPublic  = "/ws/public"
	StreamTrading = "/ws/trading"
	StreamWallet  = "/ws/wallet"
)

func streamPerIP() map[string]Class {
	return map[string]Class{
		StreamPublic:  {"messages " + StreamPublic, Limit{10, 10}, "V3-LIMIT-WS-PUBLIC-MSG"},
		StreamTrading: {"messages " + StreamTrading, Limit{10, 10}, "V3-LIMIT-WS-TRADING-MSG"},
		StreamWallet:  {"messages " + StreamWallet, Limit{10, 10}, "V3-LIMIT-WS-WALLET-MSG"},
	}
}

// methodGroup is one row of the per-account stream method tables.
type methodGroup struct {
	methods []string
	class   Class
}

func streamPerAccount() map[string][]methodGroup {
	var orders []string
	for _, m := range []string{"spot_", "margin_", "futures_"} {
		orders = append(orders, m+"new_order", m+"new_order_list", m+"replace_order")
	}
	return map[string][]methodGroup{
		StreamTrading: {
			{[]string{"login", "spot_subscribe", "spot_unsubscribe", "spot_balance_subscribe", "spot_balance_unsubscribe",
				"margin_subscribe", "margin_unsubscribe", "futures_subscribe", "futures_unsubscribe", "futures_balance"},
				Class{"account trading subscriptions", Limit{5, 0}, "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE"}},
			{[]string{"spot_balances", "spot_fee", "margin_get_accounts", "futures_get_accounts", "futures_balances", "futures_fee"},
				Class{"account trading queries", Limit{20, 10}, "V3-LIMIT-ACCT-WS-TRADING-QUERY"}},
			{orders, Class{"account trading orders", Limit{300, 200}, "V3-LIMIT-ACCT-WS-TRADING-ORDER"}},
		},
		StreamWallet: {
			{[]string{"login"}, Class{"account wallet login", Limit{2, 10}, "V3-LIMIT-ACCT-WS-WALLET-LOGIN"}},
			{[]string{"subscribe_transactions", "unsubscribe_transactions", "subscribe_wallet_balances",
				"unsubscribe_wallet_balances", "wallet_balances", "wallet_balance", "transactions"},
				Class{"account wallet methods", Limit{5, 10}, "V3-LIMIT-ACCT-WS-WALLET"}},
		},
	}
}

// ConnCap is the documented number of WebSocket connections per IP address.
const ConnCap = 100

// Table classifies requests into the classes of the v3 Limits section, with
// the faults of their rules applied. It is immutable after NewTable.
type Table struct {
	ipPrefixes   []prefix // longest first
	ipDefault    Class
	acctPrefixes []prefix // longest first
	streamIP     map[string]Class
	methods      map[string]map[string]Class // stream -> method -> class
	connCap      int
}

type prefix struct {
	path  string
	class Class
}

// NewTable builds the table. A row's fault (its rule ID) makes the row
// accept one request too many, or for the default and transfer-convert
// rows one too few, so that an off-by-one in either direction is what the
// scenarios must catch.
func NewTable(f *faults.Set) *Table {
	skew := func(c Class) Class {
		if f.On(c.Rule) {
			switch c.Rule {
			case "V3-LIMIT-IP-DEFAULT", "V3-LIMIT-IP-TRANSFER-CONVERT":
				c.Limit.Burst--
			default:
				c.Limit.Burst++
			}
		}
		return c
	}
	t := &Table{ipDefault: skew(restDefaultPerIP()), streamIP: map[string]Class{}, methods: map[string]map[string]Class{}, connCap: ConnCap}
	t.ipPrefixes = flatten(restPerIP(), skew)
	t.acctPrefixes = flatten(restPerAccount(), skew)
	for s, c := range streamPerIP() {
		t.streamIP[s] = skew(c)
	}
	for s, groups := range streamPerAccount() {
		t.methods[s] = map[string]Class{}
		for _, g := range groups {
			c := skew(g.class)
			for _, m := range g.methods {
				t.methods[s][m] = c
			}
		}
	}
	if f.On("V3-LIMIT-WS-CONN") {
		t.connCap++
	}
	return t
}

func flatten(rows []prefixClass, skew func(Class) Class) []prefix {
	var out []prefix
	for _, r := range rows {
		c := skew(r.class)
		for _, p := range r.prefixes {
			out = append(out, prefix{p, c})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].path) > len(out[j].path) })
	return out
}

// under reports whether path is p or below it, on whole segments: /public
// covers /public and /public/symbol but not /publicity.
func under(path, p string) bool {
	return path == p || (strings.HasPrefix(path, p) && path[len(p)] == '/')
}

func longest(ps []prefix, path string) (Class, bool) {
	for _, p := range ps {
		if under(path, p.path) {
			return p.class, true
		}
	}
	return Class{}, false
}

// IPClass is the per-IP class of a REST path relative to /api/3: the row
// with the longest matching prefix, else the default /*.
func (t *Table) IPClass(path string) Class {
	if c, ok := longest(t.ipPrefixes, path); ok {
		return c
	}
	return t.ipDefault
}

// AccountClass is the per-account class of a REST path, if it has one.
func (t *Table) AccountClass(path string) (Class, bool) { return longest(t.acctPrefixes, path) }

// StreamClass is the per-IP message class of a stream path (StreamPublic, ...).
func (t *Table) StreamClass(stream string) (Class, bool) {
	c, ok := t.streamIP[stream]
	return c, ok
}

// MethodClass is the per-account class of a stream method, if it has one.
func (t *Table) MethodClass(stream, method string) (Class, bool) {
	c, ok := t.methods[stream][method]
	return c, ok
}

// ConnCap is how many concurrent connections one IP address may hold on
// one stream.
func (t *Table) ConnCap() int { return t.connCap }
