package v2streams

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hmacHex is the hex HMAC SHA256 of msg with secret (the HS256 login
// signature of a nonce).
func hmacHex(secret, msg string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

func nonce() string { return fmt.Sprintf("n%016x", rand.Uint64()) }

// wrong changes the last character of a secret.
func wrong(secret string) string {
	if secret == "" {
		return "x"
	}
	last := secret[len(secret)-1]
	c := byte('0')
	if last == '0' {
		c = '1'
	}
	return secret[:len(secret)-1] + string(c)
}

// refused asserts that a login answer is an error carrying the request's id.
func refused(a frame, why string) map[string]any {
	GinkgoHelper()
	e := errorOf(a, why)
	Expect(a["id"]).NotTo(BeNil(), "the error answering %s carries the request's id", why)
	return e
}

var _ = framework.AreaDescribe("v2 streams: login", func() {
	full := func() target.Account { return framework.Current().Account(target.RoleFull) }

	framework.ConformanceIt("V2-WS-LOGIN-BASIC", func(ctx SpecContext) {
		a := full()
		s := open(ctx, pathTrading)
		refused(s.call(ctx, "login", frame{"algo": "BASIC", "pKey": a.APIKey, "sKey": wrong(a.Secret)}), "BASIC with a wrong sKey")
		Expect(s.ok(ctx, "login", frame{"algo": "BASIC", "pKey": a.APIKey, "sKey": a.Secret})).To(Equal(true), "BASIC with the key pair")
	})

	framework.ConformanceIt("V2-WS-LOGIN-HS256", func(ctx SpecContext) {
		a := full()
		s := open(ctx, pathTrading)
		n := nonce()
		refused(s.call(ctx, "login", frame{"algo": "HS256", "pKey": a.APIKey, "nonce": n, "signature": hmacHex(a.Secret, n+"x")}),
			"HS256 with the signature of another nonce")
		refused(s.call(ctx, "login", frame{"algo": "HS256", "pKey": a.APIKey, "nonce": n, "signature": hmacHex(wrong(a.Secret), n)}),
			"HS256 signed with a wrong secret")
		Expect(s.ok(ctx, "login", frame{"algo": "HS256", "pKey": a.APIKey, "nonce": n, "signature": hmacHex(a.Secret, n)})).To(Equal(true),
			"HS256 with the HMAC SHA256 of the nonce")
	})

	framework.ConformanceIt("V2-WS-LOGIN-BEARER", func(ctx SpecContext) {
		a := full()
		s := open(ctx, pathTrading)
		for _, jwt := range []string{"not-a-token", "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl"} {
			refused(s.call(ctx, "login", frame{"algo": "BEARER", "pKey": a.APIKey, "jwt": jwt}), "BEARER with "+jwt)
		}
	})

	framework.ConformanceIt("V2-WS-BEARER-TOKEN", func(ctx SpecContext) {
		a := full()
		s := open(ctx, pathTrading)
		// One guess at a token: a JWT signed HS256 with the key's secret.
		enc := base64.RawURLEncoding
		claims, _ := json.Marshal(map[string]any{"sub": a.APIKey, "exp": time.Now().Add(time.Hour).Unix()})
		msg := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString(claims)
		m := hmac.New(sha256.New, []byte(a.Secret))
		m.Write([]byte(msg))
		ans := s.call(ctx, "login", frame{"algo": "BEARER", "pKey": a.APIKey, "jwt": msg + "." + enc.EncodeToString(m.Sum(nil))})
		if r, ok := ans["result"]; ok {
			framework.Observe("V2-WS-BEARER-TOKEN", "a JWT (HS256, signed with the key's secret, sub = the API key) was accepted: result %v", r)
		} else {
			framework.Observe("V2-WS-BEARER-TOKEN", "a JWT (HS256, signed with the key's secret, sub = the API key) was refused: %v", ans["error"])
		}
	})

	framework.ConformanceContext("V2-WS-LOGIN-UNKNOWN-KEY", func() {
		DescribeTable("refuses a pKey that is no API key", func(ctx SpecContext, algo string) {
			a := full()
			s := open(ctx, pathTrading)
			n := nonce()
			p := map[string]frame{
				"BASIC":  {"sKey": a.Secret},
				"HS256":  {"nonce": n, "signature": hmacHex(a.Secret, n)},
				"BEARER": {"jwt": "not-a-token"},
			}[algo]
			p["algo"], p["pKey"] = algo, "nosuchkey"+n
			refused(s.call(ctx, "login", p), algo+" with an unknown pKey")
		},
			Entry(nil, "BASIC"), Entry(nil, "HS256"), Entry(nil, "BEARER"),
		)
	})

	framework.ConformanceContext("V2-WS-LOGIN-MISSING", func() {
		DescribeTable("refuses a login without a required parameter", func(ctx SpecContext, algo, missing string) {
			a := full()
			s := open(ctx, pathTrading)
			n := nonce()
			p := frame{"algo": algo, "pKey": a.APIKey, "sKey": a.Secret, "nonce": n, "signature": hmacHex(a.Secret, n), "jwt": "not-a-token"}
			if algo == "BASIC" {
				delete(p, "nonce")
				delete(p, "signature")
				delete(p, "jwt")
			}
			delete(p, missing)
			refused(s.call(ctx, "login", p), fmt.Sprintf("%s without %s", algo, missing))
		},
			Entry(nil, "BASIC", "sKey"),
			Entry(nil, "BASIC", "pKey"),
			Entry(nil, "HS256", "nonce"),
			Entry(nil, "HS256", "signature"),
			Entry(nil, "BEARER", "jwt"),
		)
	})

	framework.ConformanceIt("V2-WS-LOGIN-REQUIRED", func(ctx SpecContext) {
		s := open(ctx, pathTrading)
		refused(s.call(ctx, "subscribeReports", frame{}), "subscribeReports before login")
	})

	framework.ConformanceIt("V2-WS-ERROR-CODES", func(ctx SpecContext) {
		a := full()
		s := open(ctx, pathTrading)
		note := func(what string, ans frame) {
			framework.Observe("V2-WS-ERROR-CODES", "%s: %v", what, ans["error"])
		}
		note("subscribeReports before login", s.call(ctx, "subscribeReports", frame{}))
		note("BASIC with a wrong sKey", s.call(ctx, "login", frame{"algo": "BASIC", "pKey": a.APIKey, "sKey": wrong(a.Secret)}))
		note("BASIC with an unknown pKey", s.call(ctx, "login", frame{"algo": "BASIC", "pKey": "nosuchkey" + nonce(), "sKey": a.Secret}))
		note("HS256 without nonce", s.call(ctx, "login", frame{"algo": "HS256", "pKey": a.APIKey, "signature": hmacHex(a.Secret, "")}))
	})
})
