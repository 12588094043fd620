package lang

// StorageStateOptions are storageState's parameters.
type StorageStateOptions struct {
	Save       string `step:"save" doc:"write the tab's cookies and its origin's localStorage and sessionStorage to this .json file (output directory; Playwright's storage-state shape)" example:"\"state.json\""`
	Load       string `step:"load" doc:"set the cookies and storage of a file saved before (storage only for the origin the tab shows)" example:"\"state.json\""`
	AllCookies bool   `step:"allCookies" doc:"save: every cookie of the browser instead of those the page and its frames are sent"`
}

func init() {
	register(&Action{Name: "storageState", Options: StorageStateOptions{},
		Example: `{"storageState": {"save": "signed-in.json"}}`,
		Doc:     "save or load signed-in state (cookies, localStorage, sessionStorage) as a Playwright-compatible file; the answer counts, never shows values"})
}
