// Command fileknot measures how the files of one Go package reference each
// other: a file references another when it uses a name (function, method,
// type, variable, constant, field) the other declares. It prints the
// number of files and references, the pairs of files that reference each
// other, and the largest knot: the largest set of files each of which
// reaches every other through references (a strongly connected component).
// A package whose files form layers has small knots.
//
//	go run ./internal/tools/fileknot ./browser
//
// Test files and generated files are left out.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

func main() {
	list := flag.Bool("list", false, "list the files of the largest knot")
	from := flag.String("from", "", "print the files this file references (and why)")
	cuts := flag.Int("cuts", 0, "print the N references whose removal alone shrinks the knot most")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fileknot [-list] <package pattern>")
		os.Exit(2)
	}
	g, err := load(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fileknot:", err)
		os.Exit(1)
	}
	if *from != "" {
		for _, r := range g.why[*from] {
			fmt.Println(r)
		}
		return
	}
	knot := g.largestKnot()
	fmt.Printf("files %d, file references %d, mutual pairs %d, largest knot %d files with %d references inside\n",
		len(g.files), g.edgeCount(), g.mutualPairs(), len(knot), g.edgesWithin(knot))
	if *cuts > 0 {
		g.printCuts(knot, *cuts)
	}
	if *list {
		sort.Strings(knot)
		fmt.Println(strings.Join(knot, "\n"))
	}
}

// graph is the file reference graph of one package.
type graph struct {
	files []string
	edges map[string]map[string]bool
	why   map[string][]string // file → "other.go: name" lines
}

// load builds the graph of the package the pattern names.
func load(pattern string) (*graph, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s names %d packages; name one", pattern, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		return nil, fmt.Errorf("%s: %v", pattern, p.Errors[0])
	}
	g := &graph{edges: map[string]map[string]bool{}, why: map[string][]string{}}
	own := map[string]bool{}
	for _, f := range p.Syntax {
		name := filepath.Base(p.Fset.File(f.Pos()).Name())
		if ast.IsGenerated(f) {
			continue
		}
		own[name] = true
		g.files = append(g.files, name)
		g.edges[name] = map[string]bool{}
	}
	fileOf := func(pos token.Pos) string { return filepath.Base(p.Fset.File(pos).Name()) }
	for id, obj := range p.TypesInfo.Uses {
		if obj == nil || obj.Pkg() != p.Types || !obj.Pos().IsValid() {
			continue
		}
		if _, local := obj.(*types.Var); local && obj.Parent() != nil && obj.Parent() != p.Types.Scope() {
			continue // a local variable or parameter
		}
		from, to := fileOf(id.Pos()), fileOf(obj.Pos())
		if from != to && own[from] && own[to] {
			g.edges[from][to] = true
			g.why[from] = append(g.why[from], to+": "+obj.Name())
		}
	}
	return g, nil
}

func (g *graph) edgeCount() int {
	n := 0
	for _, to := range g.edges {
		n += len(to)
	}
	return n
}

func (g *graph) mutualPairs() int {
	n := 0
	for a, to := range g.edges {
		for b := range to {
			if a < b && g.edges[b][a] {
				n++
			}
		}
	}
	return n
}

func (g *graph) edgesWithin(files []string) int {
	in := map[string]bool{}
	for _, f := range files {
		in[f] = true
	}
	n := 0
	for _, a := range files {
		for b := range g.edges[a] {
			if in[b] {
				n++
			}
		}
	}
	return n
}

// largestKnot is the largest strongly connected component (Tarjan).
func (g *graph) largestKnot() []string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack, best []string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range g.edges[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > len(best) {
				best = comp
			}
		}
	}
	for _, f := range g.files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return best
}

// printCuts tries removing each reference inside the knot and prints the n
// whose removal alone leaves the smallest knot, with the names it uses.
func (g *graph) printCuts(knot []string, n int) {
	type cut struct {
		from, to string
		left     int
	}
	var all []cut
	for _, a := range knot {
		for b := range g.edges[a] {
			delete(g.edges[a], b)
			all = append(all, cut{a, b, len(g.largestKnot())})
			g.edges[a][b] = true
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].left < all[j].left })
	for _, c := range all[:min(n, len(all))] {
		var names []string
		for _, w := range g.why[c.from] {
			if name, ok := strings.CutPrefix(w, c.to+": "); ok {
				names = append(names, name)
			}
		}
		fmt.Printf("%s -> %s (%s): knot %d\n", c.from, c.to, strings.Join(names, ", "), c.left)
	}
}
