package v2

import (
	"strconv"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/shopspring/decimal"
)

func strconvFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func strconvInt(n int) string { return strconv.Itoa(n) }

// dec reads a decimal the emulator wrote itself.
func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// optInt reads an optional integer parameter.
func optInt(p api.Params, name string) (*int64, *api.Error) {
	if !p.Has(name) {
		return nil, nil
	}
	n, err := p.Int(name, 0, -1<<62, 1<<62)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// timeBounds reads from and till as DateTime.
func timeBounds(p api.Params) (from, till *time.Time, err *api.Error) {
	for name, dst := range map[string]**time.Time{"from": &from, "till": &till} {
		t, ok, terr := p.Time(name)
		t = t.Truncate(time.Millisecond)
		if terr != nil {
			return nil, nil, terr
		}
		if ok {
			*dst = &t
		}
	}
	if till != nil {
		// DateTimes are written to the millisecond: a till naming the
		// millisecond of a record keeps it, whatever its nanoseconds.
		t := till.Truncate(time.Millisecond).Add(time.Millisecond - 1)
		till = &t
	}
	return from, till, nil
}

// optDecimal reads an optional decimal parameter.
func optDecimal(p api.Params, name string) (*decimal.Decimal, *api.Error) {
	d, ok, err := p.Decimal(name)
	if err != nil || !ok {
		return nil, err
	}
	return &d, nil
}

// required reads a parameter that must be sent (10001 when missing).
func required(p api.Params, name string) (string, *api.Error) {
	v, ok := p.String(name)
	if !ok || v == "" {
		return "", api.Validation("%s is required", name)
	}
	return v, nil
}

// requiredDecimal reads a decimal parameter that must be sent.
func requiredDecimal(p api.Params, name string) (decimal.Decimal, *api.Error) {
	d, ok, err := p.Decimal(name)
	if err != nil {
		return d, err
	}
	if !ok {
		return d, api.Validation("%s is required", name)
	}
	return d, nil
}

// decimalT names the decimal type in signatures.
type decimalT = decimal.Decimal

var one = decimal.NewFromInt(1)
