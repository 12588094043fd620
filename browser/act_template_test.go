package browser

import (
	"context"
	"errors"
	"testing"
)

// reloadAndWait reloads the page and waits until its new document has #b1.
func reloadAndWait(t *testing.T, p *Page) {
	t.Helper()
	ctx := testCtx(t)
	if _, err := p.Reload(ctx, WaitLoad, false); err != nil {
		t.Fatal(err)
	}
}

// A new pointer action is its act: the template resolves the target,
// waits until it is actionable, arms the watch, settles and reports. Its
// mouse press lands once on the element.
func TestTemplateGivesANewPointerActionEverythingButItsAct(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	ctx := testCtx(t)
	press := action{kind: "click", pointer: true, act: func(ctx context.Context, s *acting) error {
		return p.in.mouseClick(ctx, s.at, "left", 1, 0)
	}}
	s, err := p.perform(ctx, Target{Text: "add one"}, press)
	if err != nil {
		t.Fatal(err)
	}
	if got := js(t, p, "hits.clicks"); got != "1" {
		t.Fatalf("clicks = %s, want 1", got)
	}
	if s.report.Element == nil {
		t.Fatalf("no element in the report: %+v", s.report)
	}
}

// A target whose document is replaced before the action's input is looked
// up again and acted on once; the same detach during the input is never
// repeated and says the action may have happened.
func TestTemplateDetachPolicy(t *testing.T) {
	p, _ := openFixture(t, "click.html")
	ctx := testCtx(t)
	prepared := 0
	ac := action{kind: "click", pointer: true}
	ac.prepare = func(ctx context.Context, s *acting) error {
		prepared++
		if prepared == 1 {
			reloadAndWait(t, p)
		}
		// The element of the replaced document is gone with it.
		return s.el().Call(ctx, nil, `(el) => el.id`)
	}
	ac.act = func(ctx context.Context, s *acting) error {
		return p.in.mouseClick(ctx, s.at, "left", 1, 0)
	}
	if _, err := p.perform(ctx, Target{Selector: "#b1"}, ac); err != nil {
		t.Fatalf("a detach before the input was not retried: %v", err)
	}
	if prepared != 2 || js(t, p, "hits.clicks") != "1" {
		t.Fatalf("prepared %d times, clicks = %s; want 2 and 1", prepared, js(t, p, "hits.clicks"))
	}

	acted := 0
	during := action{kind: "click", pointer: true, act: func(ctx context.Context, s *acting) error {
		acted++
		if err := p.in.mouseClick(ctx, s.at, "left", 1, 0); err != nil {
			return err
		}
		reloadAndWait(t, p)
		return s.el().Call(ctx, nil, `(el) => el.id`)
	}}
	_, err := p.perform(ctx, Target{Selector: "#b1"}, during)
	var d *DetachedError
	if !errors.As(err, &d) || !d.Acting || acted != 1 {
		t.Fatalf("err = %v (acted %d times); want one DetachedError while acting", err, acted)
	}
	if k := KindOf(err); k != KindContextDestroyed && k != KindStaleElement {
		t.Fatalf("kind = %s", k)
	}
}
