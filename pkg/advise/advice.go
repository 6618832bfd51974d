package advise

import (
	"github.com/tablestress/tablestress/pkg/keygen"
)

// Schema names the JSON document advise writes.
const Schema = "tablestress.advise/v1"

// Advice is what the advisor says of a scenario: every candidate ranked,
// the recommendation and the runner-up, or why nothing can serve the load
// and what would. Proof is the caller's, after running the
// recommendation.
type Advice struct {
	Schema   string  `json:"schema"`
	Scenario string  `json:"scenario"`
	Model    string  `json:"model"`
	Peak     float64 `json:"peak_ops_per_sec"`
	Headroom float64 `json:"headroom"`
	Horizon  string  `json:"horizon"`
	// Retention is --retention's age past which data is deleted, in words
	// ("" without one): the table at the horizon holds only that much.
	Retention string `json:"retention,omitempty"`
	// Notes say what of the scenario the advisor set aside, and why.
	Notes []string `json:"notes,omitempty"`
	// Recommended and RunnerUp are nil when nothing can be recommended.
	Recommended *Pick `json:"recommended"`
	RunnerUp    *Pick `json:"runner_up"`
	// Withdrawn is the recommendation its proof failed to back: it is no
	// longer recommended.
	Withdrawn *Pick `json:"withdrawn,omitempty"`
	// Lost says, for each of the scenario's own schemes, why it lost.
	Lost       []Lost          `json:"own_schemes"`
	Candidates []CandidateView `json:"candidates"`
	// Infeasible is nil, or why nothing can serve the load and what would.
	Infeasible *Infeasible `json:"infeasible"`
	Proof      any         `json:"proof"`

	// Split is the advice for one account's share when the load needs
	// several (nil otherwise); the recommendation is its.
	Split *Advice `json:"-"`
	// Ranked are the candidates best first.
	Ranked []*Candidate `json:"-"`
	// Input is what was judged (for a split, one account's share).
	Input *Input `json:"-"`
}

// Pick is a recommended scheme, in the words and templates a scenario
// takes.
type Pick struct {
	Name         string      `json:"name"`
	PartitionKey string      `json:"partition_key"`
	RowKey       string      `json:"row_key"`
	Rows         []string    `json:"rows,omitempty"`
	Indexes      []IndexView `json:"indexes"`
	Why          []string    `json:"why"`
	Costs        []string    `json:"costs"`
	// YAML is the scheme as a member of a scenario's schemes list, ready
	// to paste.
	YAML      string      `json:"yaml"`
	Predicted *Prediction `json:"predicted"`
	Candidate *Candidate  `json:"-"`
}

// IndexView is an index table as the JSON document shows it.
type IndexView struct {
	Name         string `json:"name"`
	PartitionKey string `json:"partition_key"`
	RowKey       string `json:"row_key"`
}

// indexViews lists a scheme's index tables for the JSON document.
func indexViews(ix []keygen.IndexSpec) []IndexView {
	out := []IndexView{}
	for _, x := range ix {
		out = append(out, IndexView{Name: x.Name, PartitionKey: x.PartitionKey, RowKey: x.RowKey})
	}
	return out
}

// Lost is why one of the scenario's own schemes was not recommended.
type Lost struct {
	Name string `json:"name"`
	Rank int    `json:"rank"`
	Why  string `json:"why"`
}

// CandidateView is a candidate as the JSON document shows it.
type CandidateView struct {
	Rank         int         `json:"rank"`
	Name         string      `json:"name"`
	Own          bool        `json:"own"`
	Pattern      string      `json:"pattern"`
	PartitionKey string      `json:"partition_key"`
	RowKey       string      `json:"row_key"`
	Rows         []string    `json:"rows,omitempty"`
	Indexes      []IndexView `json:"indexes"`
	Front        bool        `json:"pareto_front"`
	Problems     []string    `json:"problems"`
	Predicted    *Prediction `json:"predicted"`
}

// Infeasible says why nothing can serve the load and what would.
type Infeasible struct {
	Reason string `json:"reason"`
	// Accounts is how many storage accounts the load needs (each taking
	// an equal share), when the account's target is what no scheme meets.
	Accounts int `json:"accounts_needed,omitempty"`
	// RequestUnits is the throughput the table needs under Cosmos DB.
	RequestUnits float64 `json:"request_units_needed,omitempty"`
	// Questions are the questions no scheme answers within the bound.
	Questions []string `json:"questions,omitempty"`
	// Exceptions are those questions beside the advice for the rest of
	// the load (Advice.Split, its recommendation the Advice's): the design
	// is recommended with exceptions.
	Exceptions []Exception `json:"exceptions,omitempty"`
}

// WithExceptions reports whether the advice recommends a design for all
// but the questions no design serves.
func (a *Advice) WithExceptions() bool {
	return a.Recommended != nil && a.Infeasible != nil && len(a.Infeasible.Exceptions) > 0
}

// Withdraw takes back the recommendation (its proof failed): an advisor
// that cannot back its answer does not hand it out.
func (a *Advice) Withdraw() {
	if a.Recommended != nil {
		a.Withdrawn, a.Recommended = a.Recommended, nil
	}
}

// ProofModel is the service model the proof runs under: the advice's, or
// for advice at more request units, that throughput's.
func (a *Advice) ProofModel() string {
	if a.Split != nil {
		return a.Split.Model
	}
	return a.Model
}
