package builtins

import (
	"github.com/cdp-skill/cdp-skill/browser"
	"github.com/cdp-skill/cdp-skill/lang"
)

func init() {
	register(map[string]ActionFunc{"storageState": storageState})
}

// storageState handles storage_state(save = | load =, all_cookies =).
func storageState(c *Call) (any, error) {
	o := options[lang.StorageStateOptions](c)
	r := browser.StorageStateRequest{Save: o.Save, Load: o.Load, AllCookies: o.AllCookies, OutputDir: c.Env.OutputDir}
	if r.AllCookies && r.Load != "" {
		return nil, invalid("storage_state: all_cookies applies to save; load sets every cookie of the file")
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	res, err := p.Storage().State(c.Ctx, r)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}
