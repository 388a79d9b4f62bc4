package push

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/fabricc/fabricc/internal/quote"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// The steps Progress.Step is told of. A push runs them in this order
// (a diff stops after stage, verify runs connect and verify) and runs
// stepRollback instead of the rest when one fails.
const (
	stepConnect  = "connect"
	stepIdentity = "hostname"
	stepLock     = "lock"
	stepRecover  = "recover"
	stepStage    = "stage"
	stepApproval = "wait for approval"
	stepApply    = "apply"
	stepVerify   = "verify"
	stepWait     = "wait for the other switches"
	stepConfirm  = "confirm"
	stepSave     = "save"
	stepUnlock   = "unlock"
	stepRollback = "rollback"
)

// steps are the progress points of one device's bar.
var steps = []string{stepConnect, stepLock, stepRecover, stepStage, stepApply, stepVerify, stepConfirm, stepSave}

// LogProgress writes one line per device event, "[leaf1] connect": the
// form for pipes, CI and terminals without a size (mpb/v8 renders
// nothing and drops lines there). Lines from several devices interleave;
// each says its device. An error is device text, written through
// quote.Visible.
type LogProgress struct {
	mu   sync.Mutex
	W    io.Writer
	said map[string]bool // the other switches' failures already given whole
}

// Step logs a step.
func (p *LogProgress) Step(device, step string) { p.line(device, step) }

// Done logs the outcome: "[leaf1] changed, verified", "[leaf2] failed,
// rolled back: <error>", "[leaf3] failed, stopped before any change was
// sent; nothing to roll back: <error>".
func (p *LogProgress) Done(r *DeviceResult) {
	text := r.Status
	if r.Verified && r.Status != StatusVerified {
		text += ", verified"
	}
	if r.RolledBack {
		text += ", rolled back"
	} else if r.NothingSent && r.Status == StatusFailed {
		text += ", " + r.nothingSentLabel()
	}
	if err := p.errorOnce(r); err != "" {
		text += ": " + oneLine(err)
	}
	p.line(r.Device, text)
}

// errorOnce is r's error; the failure of another switch that stopped r
// (an all-or-nothing push) is given whole in the first line that has
// it and shortened to "leaf3 failed" in the others, so that one
// unreachable switch among 500 gives its reason once, not 499 times.
func (p *LogProgress) errorOnce(r *DeviceResult) string {
	if r.shared == nil {
		return r.Error
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if why := r.shared.Error(); !p.said[why] {
		if p.said == nil {
			p.said = map[string]bool{}
		}
		p.said[why] = true
		return r.Error
	}
	return r.errorOnce()
}

func (p *LogProgress) line(device, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.W, quote.Visible("["+device+"] "+text))
}

// BarProgress shows one bar per device with mpb; use it only when stderr
// is a terminal with a non-zero size.
type BarProgress struct {
	mu   sync.Mutex
	p    *mpb.Progress
	bars map[string]*mpb.Bar
	step map[string]string
}

// NewBarProgress creates bars for devices on w.
func NewBarProgress(w io.Writer, devices []string) *BarProgress {
	bp := &BarProgress{p: mpb.New(mpb.WithOutput(w), mpb.WithWidth(24)), bars: map[string]*mpb.Bar{}, step: map[string]string{}}
	for _, d := range devices {
		bp.bars[d] = bp.p.AddBar(int64(len(steps)),
			mpb.PrependDecorators(decor.Name(fmt.Sprintf("%-12s", d))),
			mpb.AppendDecorators(decor.Any(func(decor.Statistics) string {
				bp.mu.Lock()
				defer bp.mu.Unlock()
				return bp.step[d]
			})))
	}
	return bp
}

// Step advances the device's bar.
func (b *BarProgress) Step(device, step string) {
	b.mu.Lock()
	b.step[device] = step
	b.mu.Unlock()
	if bar := b.bars[device]; bar != nil && slices.Contains(steps, step) {
		bar.Increment()
	}
}

// Done completes or aborts the bar.
func (b *BarProgress) Done(r *DeviceResult) {
	b.mu.Lock()
	b.step[r.Device] = r.Status
	b.mu.Unlock()
	if bar := b.bars[r.Device]; bar != nil {
		if r.Status == StatusFailed {
			bar.Abort(false)
		} else {
			bar.SetCurrent(int64(len(steps)))
		}
	}
}

// Wait waits for the bars to finish drawing.
func (b *BarProgress) Wait() { b.p.Wait() }
