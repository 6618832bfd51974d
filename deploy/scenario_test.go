package deploy

import (
	"errors"

	"github.com/tablestress/tablestress/pkg/scenario"
)

func validateScenario(path string) error {
	_, errs := scenario.Load(path)
	return errors.Join(errs...)
}
