package v2account

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// unknownID is an identifier no withdrawal or transaction carries.
const unknownID = "conform-no-such-id-0001"

var _ = framework.AreaDescribe("v2 account: unknown identifiers", func() {
	framework.ConformanceIt("V2-ACCOUNT-WITHDRAW-UNKNOWN", func(ctx SpecContext) {
		e := framework.Current()
		e.RequireTrading()
		c := e.V2Signed(target.RoleFull)
		commit := send(ctx, c, http.MethodPut, "/account/crypto/withdraw/"+unknownID, nil)
		rollback := send(ctx, c, http.MethodDelete, "/account/crypto/withdraw/"+unknownID, nil)
		framework.Observe("V2-ACCOUNT-WITHDRAW-UNKNOWN", "commit of an unknown withdrawal id: %s %.80s; rollback: %s %.80s",
			trading.Outcome(commit), commit.Body, trading.Outcome(rollback), rollback.Body)
	})

	framework.ConformanceIt("V2-TX-UNKNOWN", func(ctx SpecContext) {
		ex := send(ctx, framework.Current().V2Signed(target.RoleFull), http.MethodGet, "/account/transactions/"+unknownID, nil)
		framework.Observe("V2-TX-UNKNOWN", "GET /account/transactions/<unknown> was answered %s %.80s", trading.Outcome(ex), ex.Body)
	})
})
