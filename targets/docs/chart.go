package docs

import (
	"bytes"
	"fmt"
	"image/color"

	"github.com/fabricc/fabricc/internal/memo"
	"github.com/fabricc/fabricc/model"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart colours: what the ports hold now is dark, what is kept free for
// longer cables is light, what is shared is grey.
var (
	colourReserved = color.RGBA{R: 0x1f, G: 0x5f, B: 0xa8, A: 0xff}
	colourPlanned  = color.RGBA{R: 0x9e, G: 0xc5, B: 0xec, A: 0xff}
	colourShared   = color.RGBA{R: 0xd9, G: 0xd9, B: 0xd9, A: 0xff}
	colourTotal    = color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}
)

// chartFont is the face of every text in the chart: Liberation Sans,
// which gonum/plot ships, so the text is measured without system fonts.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// BufferChart draws the buffer budget of sw as an SVG: one horizontal
// bar per pool, split into what the ports reserve now, what is kept for
// cables up to the planning length (ingress lossless pool), and the
// shared rest, with the switch's total buffer as a dashed line. The
// bytes depend only on the model (vgsvg writes no dates or random ids).
func BufferChart(sw *model.Switch) ([]byte, error) {
	pools := Pools(sw)
	if len(pools) == 0 {
		return nil, fmt.Errorf("switch %q has no buffer pools to chart", sw.Name)
	}
	p, err := budgetPlot(sw, pools)
	if err != nil {
		return nil, err
	}
	const width, legendHeight, pad = 17 * vg.Centimeter, 1.6 * vg.Centimeter, 0.3 * vg.Centimeter
	height := legendHeight + 3*vg.Centimeter + vg.Length(len(pools))*1.6*vg.Centimeter
	c := vgsvg.New(width, height)
	dc := draw.New(c)
	// The plot on top; below it the legend in two columns, so it never
	// covers a bar and needs no more height than two entries.
	p.Draw(draw.Crop(dc, pad, -pad, legendHeight, -pad))
	left, right := budgetLegends(sw)
	top := -(height - legendHeight + 0.3*vg.Centimeter)
	left.Draw(draw.Crop(dc, pad, -width*0.45, pad, top))
	right.Draw(draw.Crop(dc, width*0.58, -pad, pad, top))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("writing the buffer chart of %q: %w", sw.Name, err)
	}
	return b.Bytes(), nil
}

// budgetPlot builds the bars and the total line.
func budgetPlot(sw *model.Switch, pools []PoolUse) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: buffer budget, %s %s, %s", visible(sw.Name), visible(sw.Hardware.Model), visible(sw.Hardware.ASIC), MiB(sw.Buffer.TotalBytes))
	// Ingress and egress pools are two views of the same memory: each
	// direction sums to at most the buffer, not the two together.
	p.X.Label.Text = "MiB; ingress and egress pools each share the whole buffer"
	setFonts(p)
	n := len(pools)
	reserved, planned, shared := make(plotter.Values, n), make(plotter.Values, n), make(plotter.Values, n)
	names := make([]string, n)
	for i, u := range pools {
		// Bars are drawn bottom-up; list the pools top-down as the
		// tables do.
		j := n - 1 - i
		reserved[j] = mib(u.DemandBytes)
		planned[j] = mib(u.PlannedBytes - u.DemandBytes)
		shared[j] = mib(u.SharedBytes())
		names[j] = fmt.Sprintf("%s %s\n%s\n%s used: %s", u.Pool.Direction, u.Pool.Type, visible(u.Pool.Name),
			Percent(u.PercentUsed), kib(u.DemandBytes))
	}
	bars, err := stackedBars(reserved, planned, shared)
	if err != nil {
		return nil, err
	}
	p.Add(plotter.NewGrid())
	for _, b := range bars {
		p.Add(b)
	}
	total, err := totalLine(mib(sw.Buffer.TotalBytes), n)
	if err != nil {
		return nil, err
	}
	p.Add(total)
	p.NominalY(names...)
	p.X.Min = 0
	// Keep the pool labels clear of the bars.
	p.Y.Padding = vg.Points(8)
	p.X.Max = mib(sw.Buffer.TotalBytes) * 1.04
	return p, nil
}

// stackedBars returns the three bar series, each stacked on the one
// before.
func stackedBars(series ...plotter.Values) ([]*plotter.BarChart, error) {
	colours := []color.Color{colourReserved, colourPlanned, colourShared}
	var out []*plotter.BarChart
	for i, v := range series {
		b, err := plotter.NewBarChart(v, 0.9*vg.Centimeter)
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.Color = colours[i]
		b.LineStyle.Width = 0
		if i > 0 {
			b.StackOn(out[i-1])
		}
		out = append(out, b)
	}
	return out, nil
}

// totalLine is the dashed vertical line at the switch's total buffer,
// across all n bars.
func totalLine(total float64, n int) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: total, Y: -0.5}, {X: total, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	l.Color = colourTotal
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	return l, nil
}

// budgetLegends explain the three colours and the line, in two columns
// of two entries.
func budgetLegends(sw *model.Switch) (left, right plot.Legend) {
	left, right = newLegend(), newLegend()
	left.Add("reserved by the ports (lossless: PFC headroom)", swatch{colourReserved})
	left.Add(fmt.Sprintf("headroom kept for cables up to %s", Meters(sw.Buffer.PlanningCableMeters)), swatch{colourPlanned})
	right.Add("shared (dynamic thresholds)", swatch{colourShared})
	total, _ := totalLine(0, 1)
	right.Add(fmt.Sprintf("switch buffer, %s", MiB(sw.Buffer.TotalBytes)), total)
	return left, right
}

// newLegend is a legend in the chart font, anchored top left.
func newLegend() plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle.Font = font.From(chartFont, 9)
	leg.TextStyle.Handler = chartText
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = 0.5 * vg.Centimeter
	leg.Padding = 0.15 * vg.Centimeter
	return leg
}

// swatch is a filled legend thumbnail.
type swatch struct{ c color.Color }

// Thumbnail fills the legend box with the swatch colour.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(s.c, c.ClipPolygonY(pts))
}

// setFonts gives every text of p the chart font, measured by
// measuredText.
func setFonts(p *plot.Plot) {
	p.Title.TextStyle.Font = font.From(chartFont, 12)
	p.X.Label.TextStyle.Font = font.From(chartFont, 9)
	p.X.Tick.Label.Font = font.From(chartFont, 9)
	p.Y.Tick.Label.Font = font.From(chartFont, 9)
	for _, sty := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.X.Tick.Label, &p.Y.Label.TextStyle, &p.Y.Tick.Label} {
		sty.Handler = chartText
	}
}

// measuredText is gonum/plot's plain text handler that measures each
// text once. Every chart lays out the same axis label, legend entries,
// tick labels and pool names, and gonum measures each one glyph by
// glyph through a new glyph buffer: at 4,096 switches, a gigabyte
// allocated. A box depends only on the text and its font, so the bytes
// of a chart do not change (the golden charts).
type measuredText struct{ text.Plain }

// chartText measures with gonum/plot's own font cache, as its default
// handler does.
var chartText = measuredText{text.Plain{Fonts: font.DefaultCache}}

// textBox is a measured text's box.
type textBox struct{ width, height, depth vg.Length }

// textKey is what a box is measured from.
type textKey struct {
	text string
	font font.Font
}

// boxes keeps the boxes measured so far, at most 16,384 (a fabric's
// own strings, in titles, need not be kept).
var boxes = memo.New[textKey, textBox](1 << 14)

// Box implements text.Handler.
func (m measuredText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	b := boxes.Get(textKey{txt, fnt}, func() textBox {
		w, h, d := m.Plain.Box(txt, fnt)
		return textBox{w, h, d}
	})
	return b.width, b.height, b.depth
}

// kib is a byte count in KiB to one decimal: "494.0 KiB".
func kib(n int64) string { return fmt.Sprintf("%.1f KiB", float64(n)/1024) }

// mib converts bytes to MiB for the axis.
func mib(n int64) float64 { return float64(n) / (1 << 20) }
