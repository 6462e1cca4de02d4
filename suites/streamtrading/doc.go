// Package streamtrading holds the specs of the v3 trading stream
// ({ws_url}/api/3/ws/trading): what the document gives of it (method names,
// the request form {method, params, id}, FIFO execution, a notification for
// every order update, errors with the request id). The document shows no
// login and no message shapes, so the specs log in with the real service's
// login and read notifications only for the client_order_id they name.
package streamtrading

import (
	"github.com/conform-harness/conform/suites/trading"
)

// cloids makes the suite's client_order_ids; trading stream ones start with
// "cfw".
const cloids trading.Cloids = "cfw"
