package v2account

import (
	"net/http"

	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("v2 errors: the success status", func() {
	framework.ConformanceIt("V2-ERR-200", func(ctx SpecContext) {
		c := framework.Current().V2Signed(target.RoleFull)
		cur := addressCurrency(ctx)
		ex := send(ctx, c, http.MethodPost, "/account/crypto/address/"+cur, nil)
		Expect(ex.Status).To(Equal(http.StatusOK), "POST /account/crypto/address/%s that makes a new deposit address is answered 200 (success), not another 2xx\nexchange: %s", cur, ex)
	})
})
