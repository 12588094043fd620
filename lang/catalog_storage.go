package lang

func init() {
	register(&Action{Name: "storageState",
		Params: []Param{
			{Name: "save", Type: "string", Doc: "write the tab's cookies and its origin's localStorage and sessionStorage to this .json file (output directory; Playwright's storage-state shape)"},
			{Name: "load", Type: "string", Doc: "set the cookies and storage of a file saved before (storage only for the origin the tab shows)"},
			{Name: "allCookies", Type: "bool", Doc: "save: every cookie of the browser instead of those the page and its frames are sent"},
		},
		Doc: "save or load signed-in state (cookies, localStorage, sessionStorage) as a Playwright-compatible file; the answer counts, never shows values"})
}
