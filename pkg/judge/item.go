package judge

import (
	"encoding/json"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
)

// itemSize is what one entity's rows weigh as the service receives them.
type itemSize struct {
	bytes, props int // a main row's JSON body and its properties (keys not counted)
	indexBytes   []int
}

// sizeOf measures entity e's rows under scheme: the bodies the run sends.
func sizeOf(pop *keygen.Population, scheme *keygen.Scheme, e *keygen.Entity) itemSize {
	var k keygen.Keys
	scheme.Keys(e, &k)
	body := pop.AppendJSON(nil, e, k.PK, k.RK, 0)
	s := itemSize{bytes: len(body), props: properties(body)}
	for x, ik := range k.Index {
		s.indexBytes = append(s.indexBytes, len(pop.AppendIndexRowJSON(nil, e, &scheme.Indexes[x], ik.PK, ik.RK, k.PK, k.RK)))
	}
	return s
}

// properties counts a JSON entity's properties, its keys and type
// annotations left out.
func properties(body []byte) int {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return 0
	}
	n := 0
	for name := range m {
		if name != "PartitionKey" && name != "RowKey" && !strings.Contains(name, "@odata") {
			n++
		}
	}
	return n
}

// rowBytes is what one row of table x (0 the main table, then each index
// table) weighs.
func (j *judging) rowBytes(x int) int {
	if x == 0 || x > len(j.item.indexBytes) {
		return j.item.bytes
	}
	return j.item.indexBytes[x-1]
}
