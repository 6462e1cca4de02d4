package load

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// Geometry of the latency histogram.
const (
	svgWidth, svgHeight = 860, 320
	svgLeft, svgRight   = 70, 20
	svgTop, svgBottom   = 20, 50
	svgBars             = 48
)

// histogramSVG draws the latency distribution as an inline SVG: bars of
// equal width on a logarithmic latency axis, with the p50 and p99 marked.
func histogramSVG(h *Histogram) string {
	if h == nil || h.Count() == 0 {
		return "<p>No results.</p>"
	}
	bs := h.Buckets(svgBars)
	pw, ph := float64(svgWidth-svgLeft-svgRight), float64(svgHeight-svgTop-svgBottom)
	var peak uint64
	for _, b := range bs {
		peak = max(peak, b.Count)
	}
	lo, hi := bs[0].Low, bs[len(bs)-1].High
	xOf := func(d time.Duration) float64 {
		if hi <= lo || d <= lo {
			return svgLeft
		}
		return svgLeft + pw*math.Log(float64(d)/float64(lo))/math.Log(float64(hi)/float64(lo))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11" role="img" aria-label="latency histogram">`,
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, svgLeft, svgTop, pw, ph)
	bw := pw / float64(len(bs))
	for i, bk := range bs {
		if bk.Count == 0 {
			continue
		}
		bh := ph * float64(bk.Count) / float64(peak)
		x := svgLeft + float64(i)*bw
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#297373"><title>%s to %s: %d requests</title></rect>`,
			x+0.5, svgTop+ph-bh, max(bw-1, 0.5), bh, html.EscapeString(fmtDur(bk.Low)), html.EscapeString(fmtDur(bk.High)), bk.Count)
	}
	// Latency axis: a label every eighth bar edge and at the end.
	for i := 0; i <= len(bs); i += 8 {
		d := hi
		if i < len(bs) {
			d = bs[i].Low
		}
		x := svgLeft + float64(i)*bw
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999"/><text x="%.1f" y="%d" text-anchor="middle">%s</text>`,
			x, svgTop+int(ph), x, svgTop+int(ph)+5, x, svgTop+int(ph)+18, html.EscapeString(fmtDur(d)))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%d" text-anchor="middle">latency (logarithmic)</text>`, svgLeft+pw/2, svgHeight-8)
	// Count axis.
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d</text><text x="%d" y="%d" text-anchor="end">0</text>`,
		svgLeft-6, svgTop+10, peak, svgLeft-6, svgTop+int(ph))
	fmt.Fprintf(&b, `<text x="14" y="%g" text-anchor="middle" transform="rotate(-90 14 %g)">requests</text>`, svgTop+ph/2, svgTop+ph/2)
	for i, m := range []struct {
		name  string
		q     float64
		color string
	}{{"p50", 0.5, "#593C8F"}, {"p99", 0.99, "#B63A30"}} {
		d := h.Quantile(m.q)
		x := xOf(d)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%g" stroke="%s" stroke-dasharray="4 3"/><text x="%.1f" y="%d" fill="%s">%s %s</text>`,
			x, svgTop, x, svgTop+ph, m.color, x+3, svgTop+12+14*i, m.color, m.name, html.EscapeString(fmtDur(d)))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
