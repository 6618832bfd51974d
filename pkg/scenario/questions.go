package scenario

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablestress/tablestress/pkg/keygen"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// QuestionSpec returns the question package's spec of question i.
func (s *Scenario) QuestionSpec(i int) question.Spec {
	q := s.Questions[i]
	spec := question.Spec{Name: q.Name, Known: q.Known, Want: question.Want(q.Want), Limit: q.Limit, Window: q.Window, Anchor: q.Anchor, Select: q.Select}
	for _, p := range q.Pick {
		spec.Pick = append(spec.Pick, question.Pick{Field: p.Field, Law: string(p.Law)})
	}
	return spec
}

// CompileQuestions compiles every question over the population. A scenario
// that passed Validate always compiles.
func (s *Scenario) CompileQuestions(pop *keygen.Population) ([]*question.Question, error) {
	out := make([]*question.Question, len(s.Questions))
	for i := range s.Questions {
		q, err := question.Compile(pop, s.QuestionSpec(i))
		if err != nil {
			return nil, fmt.Errorf("questions[%d]: %w", i, err)
		}
		out[i] = q
	}
	return out, nil
}

// QuestionIndex returns the index of the question called name, or -1.
func (s *Scenario) QuestionIndex(name string) int {
	for i, q := range s.Questions {
		if q.Name == name {
			return i
		}
	}
	return -1
}

// questionOps are the threshold operations of the questions:
// question:NAME.
func (s *Scenario) questionOps() []string {
	out := make([]string, 0, len(s.Questions))
	for _, q := range s.Questions {
		out = append(out, "question:"+q.Name)
	}
	return out
}

// validateQuestions checks every question against the population and
// that the mix asks only declared questions.
func (s *Scenario) validateQuestions(add func(error)) {
	pop, popErr := keygen.NewPopulation(s.PopulationSpec())
	seen := map[string]int{}
	for i, q := range s.Questions {
		base := fmt.Sprintf("questions[%d]", i)
		if j, dup := seen[q.Name]; dup && q.Name != "" {
			add(s.errAt(base+".name", "question name %q is already used by questions[%d]: give each question its own name", q.Name, j))
		}
		seen[q.Name] = i
		if !s.given(base + ".want") {
			add(s.errAt(base, "a question needs want: one, newest, oldest or all"))
			continue
		}
		if popErr != nil {
			continue // the field errors were reported
		}
		if q.Anchor == question.AnchorPicked {
			p := s.pos.lookup(base + ".anchor")
			s.warnings = append(s.warnings, fmt.Sprintf("%s:%d:%d: %s.anchor: the window ends at the picked entity's event time, a moment in the past as the request distribution picks it: an application asking of the present (a dashboard's last minutes) asks of now, the default",
				s.File, p.line, p.col, base))
		}
		if _, err := question.Compile(pop, s.QuestionSpec(i)); err != nil {
			s.addQuestionErrors(base, flatten(err), add)
		}
	}
	for j, op := range s.Workload.Mix {
		path := fmt.Sprintf("workload.mix[%d]", j)
		switch {
		case op.Op == "question" && op.Question == "":
			add(s.errAt(path, "op question needs question: NAME, one of the scenario's questions (%s)", s.questionNames()))
		case op.Op == "question" && s.QuestionIndex(op.Question) < 0:
			add(s.errAt(path+".question", "%q is not one of the scenario's questions (%s)%s", op.Question, s.questionNames(), s.didYouMean(op.Question)))
		}
	}
}

// addQuestionErrors reports a question's compile errors at their place
// under base. When a field of known is wrong (not a field, or listed
// twice), what the question says of its known fields as a whole (want:
// one needs a field that tells entities apart) is about a list that is
// not the application's: it is left out until known is right.
func (s *Scenario) addQuestionErrors(base string, errs []error, add func(error)) {
	badKnown := false
	for _, e := range errs {
		var qe *question.Error
		if errors.As(e, &qe) && strings.HasPrefix(qe.Field, "known[") {
			badKnown = true
		}
	}
	for _, e := range errs {
		var qe *question.Error
		switch {
		case errors.As(e, &qe) && qe.Field == "known" && badKnown:
		case errors.As(e, &qe):
			add(s.errAt(base+"."+qe.Field, "%s", qe.Msg))
		default:
			add(s.errAt(base, "%v", e))
		}
	}
}

// didYouMean is " (did you mean "X"?)" for the question closest to name,
// "" when none is close.
func (s *Scenario) didYouMean(name string) string {
	names := make([]string, len(s.Questions))
	for i, q := range s.Questions {
		names[i] = q.Name
	}
	if best := textfit.Closest(name, names); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

func (s *Scenario) questionNames() string {
	if len(s.Questions) == 0 {
		return "it declares none: add them under questions:"
	}
	names := make([]string, len(s.Questions))
	for i, q := range s.Questions {
		names[i] = q.Name
	}
	return strings.Join(names, ", ")
}
