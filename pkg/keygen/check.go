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
	c := checker{s: s, p: p, seen: make(map[string]int64, CheckSample)}
	head := min(n, CheckSample)
	for i := int64(0); i < head; i++ {
		if err := c.visit(i); err != nil {
			return c.res, err
		}
	}
	if rest := n - head; rest > 0 {
		step := max(rest/CheckSample, 1)
		for i := head; i < n; i += step {
			if err := c.visit(i); err != nil {
				return c.res, err
			}
		}
	}
	return c.res, nil
}

// checker is one Check in progress: the keys seen so far, by the entity
// that first had them, and the result.
type checker struct {
	s    *Scheme
	p    *Population
	e    Entity
	k    Keys
	seen map[string]int64
	res  CheckResult
}

// visit renders entity i's keys and validates each: the PartitionKey, the
// main and secondary RowKeys (counting repeated (PartitionKey, RowKey)
// pairs) and every index row's keys.
func (c *checker) visit(i int64) error {
	c.p.Entity(i, &c.e)
	c.s.Keys(&c.e, &c.k)
	c.res.Checked++
	k := &c.k
	if err := c.check(i, "partition_key", k.PK); err != nil {
		return err
	}
	rks := append([][]byte{k.RK}, k.Rows...)
	for r, rk := range rks {
		field := "row_key"
		if r > 0 {
			field = fmt.Sprintf("rows[%d]", r-1)
		}
		if err := c.check(i, field, rk); err != nil {
			return err
		}
		c.count(i, k.PK, rk)
	}
	for x, ik := range k.Index {
		if err := c.check(i, fmt.Sprintf("indexes[%d].partition_key", x), ik.PK); err != nil {
			return err
		}
		if err := c.check(i, fmt.Sprintf("indexes[%d].row_key", x), ik.RK); err != nil {
			return err
		}
	}
	return nil
}

// check validates one key of entity i, made by the template at field.
func (c *checker) check(i int64, field string, key []byte) error {
	if err := ValidateKey(key); err != nil {
		return &SchemeError{c.s.Name, field, fmt.Errorf("entity %d: %w", i, err)}
	}
	return nil
}

// count records entity i's row (pk, rk), counting it as a collision when
// an earlier entity had it; the first collision is the example.
func (c *checker) count(i int64, pk, rk []byte) {
	id := string(pk) + "\x00" + string(rk)
	j, dup := c.seen[id]
	if !dup {
		c.seen[id] = i
		return
	}
	if c.res.Collisions == 0 {
		c.res.CollisionExample = fmt.Sprintf("entities %d and %d both have PartitionKey %q and RowKey %q", j, i, clip(string(pk), 60), clip(string(rk), 60))
	}
	c.res.Collisions++
}
