package engine

import "strings"

// replaceUnknown answers a replace naming no active order: nf, the one
// answer to an unknown order. The faults of V3-SPOT-REPLACE-UNKNOWN and
// V3-MARGIN-REPLACE-UNKNOWN answer it as a success instead (an empty order
// carrying the request's identifiers), on their venue only.
func (e *Engine) replaceUnknown(req ReplaceRequest, nf *Error) (Order, error) {
	margin := strings.HasSuffix(req.Account, marginSuffix)
	if (!margin && e.faults.On("V3-SPOT-REPLACE-UNKNOWN")) || (margin && e.faults.On("V3-MARGIN-REPLACE-UNKNOWN")) {
		o := Order{cloid: req.ClientOrderID, Account: req.Account, Status: StatusNew}
		if req.NewClientOrderID != nil {
			o.cloid = *req.NewClientOrderID
		}
		return o, nil
	}
	return Order{}, nf
}
