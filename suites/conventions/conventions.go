// Package conventions holds the specs of the v3 Conventions and Versioning
// sections: the address shape, value encodings, and persistent connections.
package conventions

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

var _ = framework.AreaDescribe("Conventions", func() {
	var e *framework.Env
	BeforeEach(func() { e = framework.Current() })

	framework.ConformanceIt("V3-CONV-ADDRESS", func(ctx SpecContext) {
		ex, _ := e.Public().Do(ctx, client.Request{Path: "/api/3/public/symbol", Absolute: true})
		Expect(ex).To(framework.BeOK())
	})

	framework.ConformanceIt("V3-CONV-TIMESTAMP", func(ctx SpecContext) {
		c := e.Public()
		for _, kind := range []string{"open_interest", "premium_index"} {
			ex, _ := c.Get(ctx, "/public/futures/candles/"+kind+"/"+e.AnySymbol(ctx, "futures"), url.Values{"limit": {"5"}})
			Expect(ex).To(framework.BeOK())
			for _, cd := range framework.ArrayOf(ex) {
				Expect(cd.(map[string]any)["timestamp"]).To(framework.BeISOTimestamp(), "candle timestamp: %s", ex)
			}
		}
		ex, _ := c.Get(ctx, "/public/symbol", nil)
		for code, s := range framework.ObjectOf(ex) {
			if v, ok := s.(map[string]any)["expiry"]; ok && v != nil {
				Expect(v).To(framework.BeISOTimestamp(), "expiry of %s", code)
			}
		}
	})

	// Every finance value of market data: steps and rates of symbols,
	// amounts of currencies and networks, and candle values.
	framework.ConformanceIt("V3-CONV-DECIMAL-STRING", func(ctx SpecContext) {
		c := e.Public()
		ex, _ := c.Get(ctx, "/public/symbol", nil)
		for code, v := range framework.ObjectOf(ex) {
			s := v.(map[string]any)
			for _, f := range []string{"tick_size", "quantity_increment", "take_rate", "make_rate", "max_initial_leverage"} {
				if x, ok := s[f]; ok {
					Expect(x).To(framework.BeDecimalString(), "%s.%s", code, f)
				}
			}
		}
		ex, _ = c.Get(ctx, "/public/currency", nil)
		for code, v := range framework.ObjectOf(ex) {
			cur := v.(map[string]any)
			Expect(cur["precision_transfer"]).To(framework.BeDecimalString(), "%s.precision_transfer", code)
			nets, _ := cur["networks"].([]any)
			for _, n := range nets {
				for _, f := range []string{"precision_payout", "payout_fee"} {
					if x, ok := n.(map[string]any)[f]; ok {
						Expect(x).To(framework.BeDecimalString(), "%s network %v .%s", code, n.(map[string]any)["code"], f)
					}
				}
			}
		}
		ex, _ = c.Get(ctx, "/public/futures/candles/open_interest/"+e.AnySymbol(ctx, "futures"), url.Values{"limit": {"3"}})
		for _, cd := range framework.ArrayOf(ex) {
			for _, f := range []string{"open", "close", "min", "max"} {
				Expect(cd.(map[string]any)[f]).To(framework.BeDecimalString(), "candle %s: %s", f, ex)
			}
		}
	})

	framework.ConformanceIt("V3-CONV-NUMBER-TYPE", func(ctx SpecContext) {
		ex, _ := e.Public().Get(ctx, "/public/currency", nil)
		seen := 0
		for code, v := range framework.ObjectOf(ex) {
			cur := v.(map[string]any)
			if x, ok := cur["account_top_order"]; ok {
				Expect(framework.IsKind(x, framework.Number)).To(BeTrue(), "%s.account_top_order = %#v", code, x)
			}
			nets, _ := cur["networks"].([]any)
			for _, n := range nets {
				x := n.(map[string]any)["payin_confirmations"]
				Expect(framework.IsKind(x, framework.Number)).To(BeTrue(), "%s network payin_confirmations = %#v", code, x)
				seen++
			}
		}
		if seen == 0 {
			Skip("the target lists no currency network, so no Number field to check")
		}
	})

	// On the emulator its control plane credits an amount of 28 significant
	// digits. Elsewhere an amount of as many digits as a balance of the
	// account and its currency's precision_transfer allow moves to the main
	// balance and back (version 2's documented transfers): a real check only
	// with more digits than a float64 keeps, so the spec skips below that.
	framework.ConformanceIt("V3-CONV-DECIMAL-PRECISION", func(ctx SpecContext) {
		if !e.Config.Emulator {
			decimalPrecisionByTransfer(ctx, e)
			return
		}
		ctl := e.Control()
		acct := e.Account(target.RoleReadOnly)
		cur := e.AnyCurrency(ctx)
		c := e.Signed(target.RoleReadOnly, framework.Basic)
		read := func() decimal.Decimal {
			GinkgoHelper()
			ex, _ := c.Get(ctx, "/spot/balance/"+cur, nil)
			Expect(ex).To(framework.BeOK())
			av := framework.ObjectOf(ex)["available"]
			Expect(av).To(framework.BeDecimalString())
			return decimal.RequireFromString(av.(string))
		}
		before := read()
		amount := decimal.RequireFromString("1234567890.123456789012345678")
		Expect(ctl.Fund(ctx, acct.APIKey, cur, amount.String())).To(Succeed())
		after := read()
		Expect(after.Sub(before).String()).To(Equal(amount.String()), "balance of %s went from %s to %s", cur, before, after)
	})

	framework.ConformanceIt("V3-CONV-KEEPALIVE", func(ctx SpecContext) {
		conn := dial(ctx, e)
		defer conn.Close()
		br := bufio.NewReader(conn)
		for i := 1; i <= 3; i++ {
			resp := roundTrip(conn, br, e, "HTTP/1.1", "")
			Expect(resp.StatusCode).To(Equal(http.StatusOK), "request %d on one HTTP/1.1 connection", i)
			Expect(resp.Close).To(BeFalse(), "request %d: the server asked to close the connection (Connection: %q)", i, resp.Header.Get("Connection"))
		}
	})

	framework.ConformanceIt("V3-CONV-KEEPALIVE-HTTP10", func(ctx SpecContext) {
		conn := dial(ctx, e)
		defer conn.Close()
		br := bufio.NewReader(conn)
		for i := 1; i <= 2; i++ {
			resp := roundTrip(conn, br, e, "HTTP/1.0", "keep-alive")
			Expect(resp.StatusCode).To(Equal(http.StatusOK), "HTTP/1.0 request %d on one connection", i)
			Expect(resp.Close).To(BeFalse(), "request %d: HTTP/1.0 with Connection: keep-alive was answered with a closing response (Connection: %q)", i, resp.Header.Get("Connection"))
		}
	})
})

// floatDigits is how many significant digits an amount needs so that a
// float64 cannot hold it (a float64 keeps 15 to 17).
const floatDigits = 17

// decimalPrecisionByTransfer is V3-CONV-DECIMAL-PRECISION on a target
// without a control plane: the amount of the most significant digits the
// full account's spot balances and their currencies' precision_transfer
// allow leaves the trading balance for the main one (exchangeToBank) and
// must leave the v3 spot balance short by exactly that amount.
func decimalPrecisionByTransfer(ctx SpecContext, e *framework.Env) {
	GinkgoHelper()
	t := trading.NewTrader(target.RoleFull, trading.Spot)
	var cur string
	var amount decimal.Decimal
	bals := t.Balances(ctx)
	for _, c := range slices.Sorted(maps.Keys(bals)) {
		prec := trading.TransferPrecision(ctx, c)
		if !bals[c].Avail.IsPositive() || !prec.IsPositive() {
			continue
		}
		// A fraction of the balance with every digit the precision allows.
		x := bals[c].Avail.Mul(decimal.RequireFromString("0.7182818284590452353602874713527")).Div(prec).Floor().Mul(prec)
		if significantDigits(x) > significantDigits(amount) {
			cur, amount = c, x
		}
	}
	if significantDigits(amount) < floatDigits {
		Skip(fmt.Sprintf("showing that an amount keeps its digits takes one of %d significant digits or more (a float64 keeps fewer), and the account's balances with their currencies' precision_transfer allow at most %d (%s %s); the emulator's control plane credits one", floatDigits, significantDigits(amount), amount, cur))
	}
	v2 := e.V2Signed(target.RoleFull)
	move := func(ctx context.Context, typ string) *client.Exchange {
		ex, _ := v2.Do(ctx, client.Request{Method: http.MethodPost, Path: "/account/transfer",
			Form: url.Values{"currency": {cur}, "amount": {amount.String()}, "type": {typ}}})
		return ex
	}
	before := t.Balance(ctx, cur).Avail
	Expect(move(ctx, "exchangeToBank")).To(framework.BeOK(), "moving %s %s to the main balance", amount, cur)
	DeferCleanup(func(ctx SpecContext) {
		Expect(move(ctx, "bankToExchange")).To(framework.BeOK(), "cleanup: moving %s %s back to the trading balance", amount, cur)
	})
	after := t.Balance(ctx, cur).Avail
	Expect(before.Sub(after).String()).To(Equal(amount.String()), "moving %s %s (%d significant digits) to the main balance took the spot balance from %s to %s", amount, cur, significantDigits(amount), before, after)
}

// significantDigits counts the digits of d from its first non-zero digit to
// its last.
func significantDigits(d decimal.Decimal) int {
	return len(strings.TrimRight(strings.TrimLeft(d.Abs().Coefficient().String(), "0"), "0"))
}

// dial opens a raw connection to the target (TLS for https).
func dial(ctx context.Context, e *framework.Env) net.Conn {
	GinkgoHelper()
	d := &net.Dialer{Timeout: 5 * time.Second}
	u, _ := url.Parse(e.Config.REST)
	var conn net.Conn
	var err error
	if u.Scheme == "https" {
		conf := &tls.Config{}
		if e.TLS() != nil {
			conf = e.TLS().Clone()
		}
		conf.ServerName = u.Hostname()
		conn, err = (&tls.Dialer{NetDialer: d, Config: conf}).DialContext(ctx, "tcp", e.HostPort())
	} else {
		conn, err = d.DialContext(ctx, "tcp", e.HostPort())
	}
	Expect(err).NotTo(HaveOccurred(), "dial %s", e.HostPort())
	Expect(conn.SetDeadline(time.Now().Add(framework.Timeouts.Request))).To(Succeed())
	return conn
}

// roundTrip writes one GET /api/3/public/symbol request by hand, so the
// protocol version and Connection header are exactly as the spec names them.
func roundTrip(conn net.Conn, br *bufio.Reader, e *framework.Env, proto, connection string) *http.Response {
	GinkgoHelper()
	u, _ := url.Parse(e.Config.REST)
	req := fmt.Sprintf("GET %s/api/3/public/symbol %s\r\nHost: %s\r\nAccept: application/json\r\n", u.Path, proto, u.Host)
	if connection != "" {
		req += "Connection: " + connection + "\r\n"
	}
	_, err := io.WriteString(conn, req+"\r\n")
	Expect(err).NotTo(HaveOccurred(), "writing %s request", proto)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodGet})
	Expect(err).NotTo(HaveOccurred(), "reading the answer to a %s request on a reused connection", proto)
	_, err = io.Copy(io.Discard, resp.Body)
	Expect(err).NotTo(HaveOccurred())
	resp.Body.Close()
	return resp
}
