package lang
import ("testing";"encoding/json")
func TestZZSize(t *testing.T){ b,_:=json.Marshal(CommandSchema()); t.Logf("%d bytes", len(b)); n:=0; for _,a:=range Actions(){ for _,p:=range a.Params { n+=len(p.Doc)}; n+=len(a.Doc)}; t.Logf("docs %d", n) }
