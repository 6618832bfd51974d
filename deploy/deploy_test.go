// Package deploy holds the Kubernetes manifests, the Grafana dashboard and
// their checks; there is no cluster here, so the manifests are decoded
// strictly into the official Kubernetes API types (unknown or mistyped
// fields fail) and checked for what the shards need.
package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func strict(t *testing.T, file string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("kubernetes", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, into); err != nil {
		t.Fatalf("%s does not match the Kubernetes API: %v", file, err)
	}
}

func TestManifestsMatchTheAPI(t *testing.T) {
	var job batchv1.Job
	strict(t, "job.yaml", &job)
	var cm corev1.ConfigMap
	strict(t, "configmap.yaml", &cm)
	var secret corev1.Secret
	strict(t, "secret.yaml", &secret)
	var sa corev1.ServiceAccount
	strict(t, "serviceaccount.yaml", &sa)

	if job.APIVersion != "batch/v1" || job.Kind != "Job" || cm.Kind != "ConfigMap" || secret.Kind != "Secret" || sa.Kind != "ServiceAccount" {
		t.Errorf("kinds: %s %s %s %s", job.Kind, cm.Kind, secret.Kind, sa.Kind)
	}
	spec := job.Spec
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion {
		t.Error("the job must be an Indexed Job")
	}
	if spec.Completions == nil || spec.Parallelism == nil || *spec.Completions != *spec.Parallelism {
		t.Fatal("completions and parallelism must be set and equal: every shard runs at once")
	}
	n := *spec.Completions
	c := spec.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	if !strings.Contains(args, "--shard=$(SHARD)/"+itoa(n)) {
		t.Errorf("args %q do not run shard $(SHARD) of %d", args, n)
	}
	for _, want := range []string{"--table=", "--yes", "--format=json", "--quiet"} {
		if !strings.Contains(args, want) {
			t.Errorf("args lack %s", want)
		}
	}
	var shardEnv bool
	for _, e := range c.Env {
		if e.Name == "SHARD" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			shardEnv = true
		}
	}
	if !shardEnv {
		t.Error("SHARD must come from the job completion index")
	}
	if spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Error("restartPolicy must be Never: a restarted shard would run twice")
	}
	// The scenario the job mounts is the ConfigMap's key.
	mounted := false
	for _, v := range spec.Template.Spec.Volumes {
		if v.ConfigMap != nil && v.ConfigMap.Name == cm.Name {
			mounted = true
		}
	}
	if _, ok := cm.Data["scenario.yaml"]; !ok || !mounted || !strings.Contains(args, "/scenario/scenario.yaml") {
		t.Error("the job must run the scenario of the ConfigMap")
	}
	if len(c.EnvFrom) == 0 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != secret.Name {
		t.Error("the target must come from the Secret")
	}
	if _, ok := secret.StringData["TABLESTRESS_TARGET"]; !ok {
		t.Error("the Secret must hold TABLESTRESS_TARGET")
	}
	if spec.Template.Spec.ServiceAccountName != sa.Name {
		t.Error("the job must use the workload identity service account")
	}
}

// The scenario inside the ConfigMap is itself a valid scenario.
func TestConfigMapScenarioIsValid(t *testing.T) {
	var cm corev1.ConfigMap
	strict(t, "configmap.yaml", &cm)
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.yaml")
	os.WriteFile(path, []byte(cm.Data["scenario.yaml"]), 0o644)
	// A scenario parses without the tablestress binary: use the package.
	if err := validateScenario(path); err != nil {
		t.Error(err)
	}
}

// The Grafana dashboard is valid JSON and only queries series tablestress
// exports.
func TestGrafanaDashboard(t *testing.T) {
	data, err := os.ReadFile("grafana/tablestress.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	exported, _ := os.ReadFile("../pkg/promexport/exporter.go")
	series := regexp.MustCompile(`tablestress_[a-z_]+`)
	if len(d.Panels) < 5 {
		t.Errorf("%d panels", len(d.Panels))
	}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			for _, s := range series.FindAllString(tg.Expr, -1) {
				base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "_bucket"), "_sum"), "_count")
				if !bytes.Contains(exported, []byte(strings.TrimPrefix(base, "tablestress_"))) {
					t.Errorf("panel %q queries %s, which tablestress does not export", p.Title, s)
				}
			}
		}
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
