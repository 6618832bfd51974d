package question

import "context"

var _ Parallel = (*counting)(nil)

// QueryAll implements Parallel: the queries' requests are counted as
// Query counts them, and their rounds as the longest query's pages (the
// queries go out at once).
func (c *counting) QueryAll(ctx context.Context, qs []Query) ([][]Row, error) {
	out := make([][]Row, len(qs))
	longest, rounds := 0, c.cost.Rounds
	for i, q := range qs {
		c.cost.Rounds = rounds
		rows, err := c.Query(ctx, q)
		longest = max(longest, c.cost.Rounds-rounds)
		if err != nil {
			return out, err
		}
		out[i] = rows
	}
	c.cost.Rounds = rounds + longest
	return out, nil
}

// GetAll implements Parallel: each point read counted as Get counts it,
// the lot one round.
func (c *counting) GetAll(ctx context.Context, keys []Key) ([]Row, []bool, error) {
	rows, found := make([]Row, len(keys)), make([]bool, len(keys))
	rounds := c.cost.Rounds
	for i, k := range keys {
		var err error
		if rows[i], found[i], err = c.Get(ctx, k.PK, k.RK); err != nil {
			return rows, found, err
		}
	}
	c.cost.Rounds = rounds + min(len(keys), 1)
	return rows, found, nil
}
