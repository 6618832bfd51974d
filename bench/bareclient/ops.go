package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/scenario"
)

// source is a scenario's population and the keys of its first scheme.
type source struct {
	pop    *keygen.Population
	scheme *keygen.Scheme
	keys   [][2]string // (PartitionKey, RowKey) of every entity
}

// loadSource compiles a scenario and computes the keys of every entity of
// its population under its first scheme.
func loadSource(path string) (*source, error) {
	s, errs := scenario.Load(path)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	pop, schemes, err := s.Compile()
	if err != nil {
		return nil, err
	}
	n := int64(s.Population.Entities)
	src := &source{pop: pop, scheme: schemes[0], keys: make([][2]string, n)}
	var ent keygen.Entity
	var k keygen.Keys
	for i := range n {
		pop.Entity(i, &ent)
		src.scheme.Keys(&ent, &k)
		src.keys[i] = [2]string{string(k.PK), string(k.RK)}
	}
	return src, nil
}

// prepare checks the table is usable for op and returns what makes worker
// w's call: a function doing one operation.
func prepare(client *aztables.Client, src *source, op string) (func(w int) func() error, error) {
	ctx := context.Background()
	if op == "read" {
		k := src.keys[0]
		if _, err := client.GetEntity(ctx, k[0], k[1], nil); err != nil {
			return nil, fmt.Errorf("the table does not hold the scenario's entities: %w", err)
		}
		return func(w int) func() error {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			return func() error {
				k := src.keys[r.IntN(len(src.keys))]
				_, err := client.GetEntity(ctx, k[0], k[1], nil)
				return err
			}
		}, nil
	}
	var re *azcore.ResponseError
	if _, err := client.CreateTable(ctx, nil); err != nil && !(errors.As(err, &re) && re.ErrorCode == string(aztables.TableAlreadyExists)) {
		return nil, fmt.Errorf("creating the table: %w", err)
	}
	// RowKeys no run has used: the scenario's, then this run's nonce, the
	// worker and its count.
	nonce := "-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"
	return func(w int) func() error {
		var ent keygen.Entity
		var keys keygen.Keys
		var body, rk []byte
		n := int64(0)
		return func() error {
			i := (int64(w) + n*997) % int64(len(src.keys))
			src.pop.Entity(i, &ent)
			src.scheme.Keys(&ent, &keys)
			rk = append(append(append(rk[:0], keys.RK...), nonce...), strconv.Itoa(w)...)
			rk = strconv.AppendInt(append(rk, '-'), n, 10)
			n++
			body = src.pop.AppendJSON(body[:0], &ent, keys.PK, rk, 0)
			_, err := client.AddEntity(ctx, body, nil)
			return err
		}
	}, nil
}
