package main

import (
	"fmt"
	"strings"
)

// page is one fixture page: its main content and the behaviour the bench
// steps exercise (#bench-click, #bench-fill, #bench-link in main).
type page struct {
	name  string
	title string
	main  string
	// script runs after the page is built.
	script string
}

// chrome wraps a page's main in what real sites put around it: a header
// with navigation, search and account links, a sidebar, a footer of link
// columns, a newsletter form and a toast region.
func chrome(p page) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>%s · Northwind</title><style>
body{margin:0;font:15px/1.4 sans-serif} header{display:flex;gap:10px;align-items:center;padding:8px 16px;background:#123;color:#fff}
header a{color:#fff} .wrap{display:flex} aside{width:200px;padding:8px;flex:none} main{flex:1;padding:8px 16px;min-width:0}
footer{display:flex;gap:24px;padding:16px;background:#eee} .toasts{position:fixed;right:12px;bottom:12px}
.card{border:1px solid #ccc;padding:6px;margin:4px;display:inline-block;width:180px;vertical-align:top}
.col{display:inline-block;vertical-align:top;width:220px} .kcard{border:1px solid #aaa;margin:4px;padding:6px;background:#fff}
</style></head><body>
<header><a href="/">Northwind</a>
<nav aria-label="Primary"><a href="/c/new">New</a> <a href="/c/women">Women</a> <a href="/c/men">Men</a> <a href="/c/kids">Kids</a> <a href="/c/home">Home</a> <a href="/c/beauty">Beauty</a> <a href="/c/sale">Sale</a> <a href="/c/brands">Brands</a></nav>
<form role="search" onsubmit="return false"><input type="search" aria-label="Search Northwind" placeholder="Search"><button>Search</button></form>
<a href="/help">Help</a> <a href="/account">Account</a> <a href="/cart" id="cart">Cart (0)</a></header>
<div class="wrap"><aside><nav aria-label="Categories"><h2>Categories</h2><ul>`, p.title)
	for _, c := range []string{"Dresses", "Tops", "Jeans", "Shoes", "Bags", "Jewelry", "Coats", "Knitwear", "Sportswear", "Swimwear", "Lingerie", "Accessories", "Beauty", "Home decor", "Gifts"} {
		fmt.Fprintf(&b, `<li><a href="/c/%s">%s</a></li>`, strings.ToLower(strings.ReplaceAll(c, " ", "-")), c)
	}
	b.WriteString(`</ul></nav><section aria-label="Promotions"><h2>Deals</h2><p>Free shipping over $50.</p><a href="/deals">See all deals</a></section></aside>
<main>`)
	b.WriteString(p.main)
	b.WriteString(`</main></div><footer>`)
	for _, col := range [][]string{{"About", "Careers", "Press", "Sustainability", "Investors", "Leadership", "Newsroom", "Partners"},
		{"Help", "Shipping", "Returns", "Sizing", "Contact", "Track order", "Payment", "FAQ"},
		{"Gift cards", "Stores", "App", "Affiliates", "Blog", "Student discount", "Refer a friend", "Rewards"},
		{"Instagram", "TikTok", "Pinterest", "YouTube", "Facebook", "Threads", "Podcast", "Newsletter"},
		{"Privacy", "Terms", "Cookies", "Accessibility", "Sitemap", "Modern slavery", "Tax strategy", "Imprint"}} {
		fmt.Fprintf(&b, `<nav aria-label="%s"><ul>`, col[0])
		for _, l := range col {
			fmt.Fprintf(&b, `<li><a href="/p/%s">%s</a></li>`, strings.ToLower(strings.ReplaceAll(l, " ", "-")), l)
		}
		b.WriteString(`</ul></nav>`)
	}
	b.WriteString(`<form onsubmit="return false" aria-label="Newsletter"><label>Email <input type="email" name="news"></label><button>Subscribe</button></form></footer>
<div class="toasts" id="toasts" aria-live="polite"></div>
<script>function toast(t){const d=document.createElement('div');d.textContent=t;document.getElementById('toasts').append(d);setTimeout(()=>d.remove(),4000)}
` + p.script + `</script></body></html>`)
	return b.String()
}

func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(f(i))
	}
	return b.String()
}

// pages are the bench's fixture pages. Each main has #bench-click (a
// button that changes the page), #bench-fill (a field) and #bench-link (a
// link to the next page).
func pages() []page {
	return []page{
		{name: "listing", title: "Dresses", main: `<h1>Dresses</h1><p>240 styles</p>
<form aria-label="Filters" onsubmit="return false"><label>Filter <input id="bench-fill"></label>
<fieldset><legend>Size</legend>` + repeat(5, func(i int) string {
			return fmt.Sprintf(`<label><input type="checkbox"> %s</label>`, []string{"XS", "S", "M", "L", "XL"}[i-1])
		}) + `</fieldset>
<label>Sort <select><option>Featured</option><option>Price</option><option>Newest</option></select></label></form>
<a id="bench-link" href="product.html">Featured: Linen wrap dress</a>` +
			repeat(48, func(i int) string {
				return fmt.Sprintf(`<div class="card"><a href="product.html?id=%d">Dress %d</a><p>$%d.00</p><button class="add" %s>Add to bag</button></div>`, i, i, 40+i, map[bool]string{true: `id="bench-click"`}[i == 1])
			}),
			script: `let n=0;document.querySelectorAll('.add').forEach(b=>b.addEventListener('click',()=>{n++;document.getElementById('cart').textContent='Cart ('+n+')';toast('Added to bag')}))`},
		{name: "product", title: "Linen wrap dress", main: `<nav aria-label="Breadcrumb"><a href="/">Home</a> › <a href="listing.html" id="bench-link">Dresses</a></nav><h1>Linen wrap dress</h1><p>$89.00</p>
<div>` + repeat(6, func(i int) string { return fmt.Sprintf(`<button aria-label="Photo %d">•</button>`, i) }) + `</div>
<fieldset><legend>Size</legend>` + repeat(5, func(i int) string {
			return fmt.Sprintf(`<label><input type="radio" name="size"> %s</label>`, []string{"XS", "S", "M", "L", "XL"}[i-1])
		}) + `</fieldset>
<label>Quantity <input type="number" value="1"></label> <label>Gift message <input id="bench-fill"></label> <button id="bench-click">Add to bag</button> <button>Save</button>
<div role="tablist"><button role="tab" aria-selected="true">Details</button><button role="tab">Care</button><button role="tab">Shipping</button></div>
<p>Made of washed linen. Relaxed fit with a tie waist.</p><h2>Reviews</h2>` +
			repeat(20, func(i int) string {
				return fmt.Sprintf(`<article><h3>Review %d</h3><p>Lovely fabric, fits true to size. Would buy again.</p><button>Helpful</button></article>`, i)
			}) +
			`<h2>You may also like</h2><ul>` + repeat(8, func(i int) string {
			return fmt.Sprintf(`<li><a href="product.html?id=%d">Related dress %d</a></li>`, i+50, i)
		}) + `</ul>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{document.getElementById('cart').textContent='Cart (1)';toast('Added to bag: Linen wrap dress')})`},
		{name: "article", title: "Spring trends", main: `<article><h1>Ten spring trends</h1><p>By Ana Ruiz · 5 min read</p>` +
			repeat(20, func(i int) string {
				return fmt.Sprintf(`<h2>Trend %d</h2><p>Paragraph %d about colour, cut and fabric, with a <a href="/t/%d">related piece</a> and some more words to read.</p>`, i, i, i)
			}) + `<div>` + repeat(4, func(i int) string { return fmt.Sprintf(`<button>Share %d</button>`, i) }) + `</div>
<button id="bench-click" aria-expanded="false">Show comments (3)</button><div id="comments" hidden>` + repeat(3, func(i int) string { return fmt.Sprintf(`<p>Comment %d <button>Reply</button></p>`, i) }) + `</div>
<label>Your comment <textarea id="bench-fill"></textarea></label><button>Post</button><a id="bench-link" href="search.html">Search the magazine</a></article>`,
			script: `document.getElementById('bench-click').addEventListener('click',e=>{document.getElementById('comments').hidden=false;e.target.setAttribute('aria-expanded','true')})`},
		{name: "dashboard", title: "Orders", main: `<h1>Orders</h1><div>` + repeat(5, func(i int) string {
			return fmt.Sprintf(`<section aria-label="Stat %d"><h2>%d,%03d</h2><p>Metric %d</p></section>`, i, i*3, i*7, i)
		}) + `</div>
<label>Filter orders <input id="bench-fill"></label><a id="bench-link" href="settings.html">Settings</a>
<table><thead><tr><th>Order</th><th>Status</th><th>Date</th><th>Actions</th></tr></thead><tbody id="rows">` +
			repeat(50, func(i int) string {
				return fmt.Sprintf(`<tr><td><a href="/o/%d">#%d</a></td><td>Shipped</td><td>2026-03-%02d</td><td><button>Edit</button><button>Delete</button></td></tr>`, 1000+i, 1000+i, i)
			}) + `</tbody></table><button id="bench-click">Load more</button>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{const t=document.getElementById('rows');for(let i=0;i<3;i++){const r=t.insertRow(0);r.innerHTML='<td><a href="/o/new'+i+'">#new'+i+'</a></td><td>New</td><td>today</td><td><button>Edit</button></td>'}})`},
		{name: "settings", title: "Settings", main: `<h1>Account settings</h1><div role="tablist"><button role="tab" aria-selected="true">Profile</button><button role="tab">Security</button><button role="tab">Billing</button></div>
<form onsubmit="return false" aria-label="Profile"><label>Display name <input id="bench-fill" value="Ana"></label>` +
			repeat(18, func(i int) string { return fmt.Sprintf(`<p><label>Field %d <input name="f%d"></label></p>`, i, i) }) +
			repeat(4, func(i int) string {
				return fmt.Sprintf(`<label><input type="checkbox"> Email me about topic %d</label>`, i)
			}) +
			`<label>Language <select><option>English</option><option>Español</option></select></label><p id="saved" role="status"></p><button id="bench-click">Save changes</button></form><a id="bench-link" href="inbox.html">Inbox</a>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{document.getElementById('saved').textContent='Saved.'})`},
		{name: "search", title: "Search", main: `<h1>Search</h1><form role="search" aria-label="Magazine search" onsubmit="return false"><input id="bench-fill" aria-label="Search terms"><button id="bench-click">Search</button></form><p id="count">10 results</p><ol>` +
			repeat(10, func(i int) string {
				return fmt.Sprintf(`<li><a href="/r/%d">Result %d: a page about spring</a><p>https://northwind.example/r/%d — a snippet of the page with matching words.</p></li>`, i, i, i)
			}) + `</ol><nav aria-label="Pagination">` + repeat(10, func(i int) string { return fmt.Sprintf(`<a href="?p=%d">%d</a> `, i, i) }) + `</nav><h2>Related searches</h2>` +
			repeat(8, func(i int) string { return fmt.Sprintf(`<a href="/s/%d">related %d</a> `, i, i) }) + `<a id="bench-link" href="kanban.html">Board</a>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{document.getElementById('count').textContent='3 results for '+document.getElementById('bench-fill').value})`},
		{name: "kanban", title: "Board", main: `<h1>Sprint board</h1><label>New card <input id="bench-fill"></label><button id="bench-click">Add card</button><a id="bench-link" href="dashboard.html">Orders</a><div>` +
			repeat(4, func(c int) string {
				return fmt.Sprintf(`<section class="col" aria-label="%s"><h2>%s</h2><div class="cards">`, []string{"To do", "Doing", "Review", "Done"}[c-1], []string{"To do", "Doing", "Review", "Done"}[c-1]) +
					repeat(10, func(i int) string {
						return fmt.Sprintf(`<div class="kcard"><div class="t">Task %d-%d</div><div class="m">Owner %d · %d pts</div></div>`, c, i, i, i%5+1)
					}) + `</div></section>`
			}) + `</div>`,
			script: `const open=()=>{};document.querySelectorAll('.kcard').forEach(k=>k.addEventListener('click',open));document.getElementById('bench-click').addEventListener('click',()=>{const k=document.createElement('div');k.className='kcard';k.textContent=document.getElementById('bench-fill').value||'New task';k.addEventListener('click',open);document.querySelector('.cards').prepend(k)})`},
		{name: "inbox", title: "Inbox", main: `<h1>Inbox</h1><div role="toolbar" aria-label="Mail actions"><button id="bench-click">Refresh</button><button>Archive</button><button>Delete</button><button>Mark read</button><button>Move</button></div>
<label>Search mail <input id="bench-fill"></label><p id="status" role="status">Updated just now</p><a id="bench-link" href="login.html">Sign out</a><ul>` +
			repeat(50, func(i int) string {
				return fmt.Sprintf(`<li><input type="checkbox" aria-label="Select message %d"> <b>Sender %d</b> <a href="/m/%d">Subject of message %d</a> <span>Mar %d</span></li>`, i, i, i, i, i)
			}) + `</ul>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{document.getElementById('status').textContent='2 new messages'})`},
		{name: "login", title: "Sign in", main: `<h1>Sign in</h1><div role="alert" id="alert"></div><form onsubmit="return false"><label>Email <input id="bench-fill" type="email"></label><label>Password <input type="password"></label><button id="bench-click">Sign in</button></form><a id="bench-link" href="listing.html">Continue shopping</a>`,
			script: `document.getElementById('bench-click').addEventListener('click',()=>{document.getElementById('alert').textContent='Please fix the errors below.'})`},
	}
}
