package load

import (
	"fmt"
	"html"
	"strings"
)

// throughputSVG draws requests sent and succeeded per second over the run.
func throughputSVG(series []SecondCount) string {
	if len(series) == 0 {
		return "<p>No results.</p>"
	}
	pw, ph := float64(svgWidth-svgLeft-svgRight), float64(svgHeight-svgTop-svgBottom)
	var peak uint64 = 1
	for _, c := range series {
		peak = max(peak, c.Sent)
	}
	n := len(series)
	xOf := func(i int) float64 {
		if n == 1 {
			return svgLeft + pw/2
		}
		return svgLeft + pw*float64(i)/float64(n-1)
	}
	yOf := func(v uint64) float64 { return svgTop + ph - ph*float64(v)/float64(peak) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="100%%" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11" role="img" aria-label="throughput over time">`,
		svgWidth, svgHeight)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%g" height="%g" fill="#fafafa" stroke="#ccc"/>`, svgLeft, svgTop, pw, ph)
	for _, line := range []struct {
		name, color string
		v           func(SecondCount) uint64
	}{{"sent", "#999", func(c SecondCount) uint64 { return c.Sent }}, {"succeeded", "#297373", func(c SecondCount) uint64 { return c.OK }}} {
		pts := make([]string, n)
		for i, c := range series {
			pts[i] = fmt.Sprintf("%.1f,%.1f", xOf(i), yOf(line.v(c)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"><title>%s per second</title></polyline>`, line.color, strings.Join(pts, " "), line.name)
	}
	// Time axis: about eight labels.
	step := max(1, n/8)
	for i := 0; i < n; i += step {
		x := xOf(i)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%g" x2="%.1f" y2="%g" stroke="#999"/><text x="%.1f" y="%g" text-anchor="middle">%ds</text>`,
			x, svgTop+ph, x, svgTop+ph+5, x, svgTop+ph+18, series[i].Second)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%d" text-anchor="middle">seconds into the run</text>`, svgLeft+pw/2, svgHeight-8)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%d/s</text><text x="%d" y="%g" text-anchor="end">0</text>`,
		svgLeft-6, svgTop+10, peak, svgLeft-6, svgTop+ph)
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#999">— sent</text><text x="%d" y="%d" fill="#297373">— succeeded (2xx/3xx)</text>`,
		svgLeft+8, svgTop+14, svgLeft+70, svgTop+14)
	b.WriteString(`</svg>`)
	return b.String()
}

// statusColors colour the status classes of the mix.
func statusColor(code string) string {
	switch {
	case code == "429":
		return "#f0ad4e"
	case code == "0":
		return "#333"
	case strings.HasPrefix(code, "2"), strings.HasPrefix(code, "3"):
		return "#5cb85c"
	case strings.HasPrefix(code, "4"):
		return "#d9534f"
	}
	return "#843534"
}

// statusMixHTML is one bar split by status code, with a legend.
func statusMixHTML(s *Summary) string {
	if s.Requests == 0 {
		return "<p>No results.</p>"
	}
	var bar, legend strings.Builder
	for _, c := range s.sortedCodes() {
		n := s.StatusCodes[c]
		label := c
		if c == "0" {
			label = "no answer"
		}
		pct := 100 * float64(n) / float64(s.Requests)
		fmt.Fprintf(&bar, `<span style="width:%.3f%%;background:%s" title="%s: %d (%.2f%%)"></span>`, pct, statusColor(c), html.EscapeString(label), n, pct)
		fmt.Fprintf(&legend, `<li><i style="background:%s"></i>%s: %d (%.2f%%)</li>`, statusColor(c), html.EscapeString(label), n, pct)
	}
	return `<div class="mix">` + bar.String() + `</div><ul class="legend">` + legend.String() + `</ul>`
}
