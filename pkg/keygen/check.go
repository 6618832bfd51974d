package keygen

import "fmt"

// CheckSample is how many entities Check renders: the first CheckSample
// entities of the population, plus as many spread evenly over the rest.
const CheckSample = 10_000

// CheckResult is what Check found besides outright invalid keys.
type CheckResult struct {
	// Checked is the number of entities rendered.
	Checked int
	// Collisions counts entities whose (PartitionKey, RowKey) repeats an
	// earlier entity's in the sample: their inserts would fail with 409.
	Collisions int
	// CollisionExample describes the first collision.
	CollisionExample string
}

// Check renders the keys of a sample of the first n entities and validates
// every one. It returns a SchemeError naming the template and an example
// entity for the first invalid key, and counts (PartitionKey, RowKey)
// collisions, which are a design problem rather than invalid input.
func (s *Scheme) Check(p *Population, n int64) (CheckResult, error) {
	var res CheckResult
	var e Entity
	var k Keys
	seen := make(map[string]int64, CheckSample)
	visit := func(i int64) error {
		p.Entity(i, &e)
		s.Keys(&e, &k)
		res.Checked++
		check := func(field string, key []byte) error {
			if err := ValidateKey(key); err != nil {
				return &SchemeError{s.Name, field, fmt.Errorf("entity %d: %w", i, err)}
			}
			return nil
		}
		if err := check("partition_key", k.PK); err != nil {
			return err
		}
		rks := append([][]byte{k.RK}, k.Rows...)
		for r, rk := range rks {
			field := "row_key"
			if r > 0 {
				field = fmt.Sprintf("rows[%d]", r-1)
			}
			if err := check(field, rk); err != nil {
				return err
			}
			id := string(k.PK) + "\x00" + string(rk)
			if j, dup := seen[id]; dup {
				if res.Collisions == 0 {
					res.CollisionExample = fmt.Sprintf("entities %d and %d both have PartitionKey %q and RowKey %q", j, i, clip(string(k.PK), 60), clip(string(rk), 60))
				}
				res.Collisions++
			} else {
				seen[id] = i
			}
		}
		for x, ik := range k.Index {
			if err := check(fmt.Sprintf("indexes[%d].partition_key", x), ik.PK); err != nil {
				return err
			}
			if err := check(fmt.Sprintf("indexes[%d].row_key", x), ik.RK); err != nil {
				return err
			}
		}
		return nil
	}
	head := min(n, CheckSample)
	for i := int64(0); i < head; i++ {
		if err := visit(i); err != nil {
			return res, err
		}
	}
	if rest := n - head; rest > 0 {
		step := max(rest/CheckSample, 1)
		for i := head; i < n; i += step {
			if err := visit(i); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}
