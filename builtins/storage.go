package builtins

import "github.com/cdp-skill/cdp-skill/browser"

func init() {
	register(map[string]ActionFunc{"storageState": storageState})
}

// storageState handles storage_state(save = | load =, all_cookies =).
func storageState(c *Call) (any, error) {
	var r browser.StorageStateRequest
	var err error
	if r.Save, err = c.Args.String("save"); err != nil {
		return nil, err
	}
	if r.Load, err = c.Args.String("load"); err != nil {
		return nil, err
	}
	if r.AllCookies, err = c.Args.Bool("allCookies", false); err != nil {
		return nil, err
	}
	if r.AllCookies && r.Load != "" {
		return nil, invalid("storage_state: all_cookies applies to save; load sets every cookie of the file")
	}
	p, err := c.Env.Page()
	if err != nil {
		return nil, err
	}
	res, err := p.StorageState(c.Ctx, r)
	if err != nil {
		return nil, err
	}
	warnAll(c, res.Warnings)
	return res, nil
}
