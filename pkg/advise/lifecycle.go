package advise

import (
	"fmt"
	"strings"
	"time"

	"github.com/tablestress/tablestress/pkg/judge"
	"github.com/tablestress/tablestress/pkg/question"
	"github.com/tablestress/tablestress/pkg/textfit"
)

// deletionWords says how a candidate's old data goes with the retention
// (Azure Storage "Table design patterns", "High volume delete pattern":
// old data in partitions, or tables, of its own is deleted whole): per
// table, whole time-bucket partitions (a range read and transactions of 100
// deletes; or a table per period, deleted at once), the partitions of
// retired keys, whole, or a sweep (a filter
// visiting every row, then deletes one by one); and what it asks of the
// account and of its busiest partition.
func deletionWords(d *judge.Deletion) string {
	var ways []string
	for _, t := range d.Tables {
		switch t.How {
		case "partitions":
			ways = append(ways, fmt.Sprintf("%s drops a time bucket's partitions every %s (a range read and transactions of 100 deletes each, or a table per period deleted at once)",
				t.Table, everyWords(t.Period)))
		case "retired":
			ways = append(ways, fmt.Sprintf("%s deletes each key's partition whole once the key has retired and its rows are older than %s (a key lives %s; %s partitions a second: a range read and transactions of 100 deletes each)",
				t.Table, d.Retention, t.Period, textfit.Rate(t.PartitionsPerSec)))
		case "sweep":
			ways = append(ways, fmt.Sprintf("%s is swept every %s by a filter on the event time that visits every row (%s rows/s), the old entities then deleted one by one",
				t.Table, t.Period, textfit.Rate(t.RowsVisitedPerSec)))
		default:
			ways = append(ways, fmt.Sprintf("%s's rows are deleted with their entity, one request each", t.Table))
		}
	}
	return fmt.Sprintf("deleting data older than %s: %s; %s requests/s at the account, at most %s entities/s on %q", d.Retention, strings.Join(ways, "; "),
		textfit.Rate(d.AccountRequestsPerSec), textfit.Rate(d.BusiestEntitiesPerSec), d.BusiestPartition)
}

// everyWords names a time bucket's length after "every": "hour",
// "month", else as it is written.
func everyWords(s string) string {
	d, err := time.ParseDuration(s)
	if err != nil {
		return s
	}
	for _, u := range question.WindowUnits {
		if u.Mean() == d {
			return u.String()
		}
	}
	return s
}
