package emulator

import (
	"fmt"
	"testing"
)

// networkFaultCases shows, for each fault of a network request parameter
// (V2-ACCOUNT-WITHDRAW-NETWORK, V2-SUBACC-ADDRESS-NETWORK,
// V3-SUBACC-ADDRESS-NETWORK, V2-BUY-ORDER-NETWORK), one observation of its
// rule that differs with the fault on. No per-fault table of the v2account,
// v2subaccounts, subaccounts or v2buycrypto areas exists yet; these cases
// are the start of one.
var networkFaultCases = []struct {
	fault   string
	run     func(t *testing.T, bot, other v2bot) string
	off, on string
}{
	{"V2-ACCOUNT-WITHDRAW-NETWORK", func(t *testing.T, bot, other v2bot) string {
		// USDT's TRX network is not its default (ETH): ignoring networkCode
		// files the used address under ETH.
		to := obj(t, other.ok("GET", "/api/2/account/crypto/address/USDT?networkCode=TRX", nil))["address"]
		bot.ok("POST", "/api/2/account/crypto/withdraw", map[string]any{"currency": "USDT", "networkCode": "TRX", "amount": "10", "address": to})
		used := arr(t, bot.ok("GET", "/api/2/account/crypto/used-addresses/USDT?networkCode=TRX", nil))
		return fmt.Sprint(len(used))
	}, "1", "0"},
	{"V2-SUBACC-ADDRESS-NETWORK", func(t *testing.T, bot, _ v2bot) string {
		res := obj(t, obj(t, bot.ok("GET", "/api/2/sub-acc/deposit-address/100011/USDT?networkCode=TRX", nil))["result"])
		return fmt.Sprint(res["networkCode"])
	}, "TRX", "ETH"},
	{"V3-SUBACC-ADDRESS-NETWORK", func(t *testing.T, bot, _ v2bot) string {
		code, v := bot.do("GET", "/api/3/sub-account/crypto/address/cedaa5cd2773e3f2ff53a5f5f802d4fe/USDT?network_code=TRX", nil)
		if code != 200 {
			return errCode(t, v)
		}
		return fmt.Sprint(code)
	}, "200", "10001"},
	{"V2-BUY-ORDER-NETWORK", func(t *testing.T, bot, _ v2bot) string {
		code, v := bot.do("POST", "/api/2/buy-crypto/provider/1/order", map[string]any{"source": "EUR", "target": "USDT", "sourceAmount": "100", "paymentMethodId": 11, "targetNetworkCode": "ETH"})
		if code != 200 {
			return errCode(t, v)
		}
		id := obj(t, v)["id"]
		for _, o := range arr(t, bot.ok("GET", "/api/2/buy-crypto/provider/1/order?from=0&till=99999999999999&targetNetworkCode=ETH", nil)) {
			if obj(t, o)["id"] == id {
				return "listed"
			}
		}
		return "not listed"
	}, "listed", "10001"},
}

func TestNetworkFaults(t *testing.T) {
	for _, c := range networkFaultCases {
		t.Run(c.fault, func(t *testing.T) {
			for _, on := range []bool{false, true} {
				opts, want := Options{NoLimits: true}, c.off
				if on {
					opts.Faults, want = []string{c.fault}, c.on
				}
				h := newTest(t, opts).Handler()
				if got := c.run(t, v2bot{t, h, full1, secret1}, v2bot{t, h, full2, secret2}); got != want {
					t.Errorf("fault on=%v: got %q, want %q", on, got, want)
				}
			}
		})
	}
}
