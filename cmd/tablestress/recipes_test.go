package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The CI files hold what a user copies: their tablestress command lines
// must run with this tablestress, and the JUnit files they write must be
// the ones they publish. actionlint (scripts/test.sh) checks the GitHub
// workflows against GitHub's rules; these tests check what it cannot.

// recipeCommand parses one tablestress command line of a CI file with the
// real commands: it returns the command's name, the value of every flag
// given, and its arguments; flags the command does not take fail the test.
func recipeCommand(t *testing.T, file, line string) (string, map[string]string, []string) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) < 2 || fields[0] != "bin/tablestress" {
		t.Fatalf("%s: not a tablestress command line: %q", file, line)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }, stdin: strings.NewReader("")}
	root := newRoot(context.Background(), e)
	cmd, rest, err := root.Find(fields[1:])
	if err != nil || cmd == root {
		t.Fatalf("%s: %q names no command: %v", file, line, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: %q: %v", file, line, err)
	}
	flags := map[string]string{}
	for _, name := range []string{"target", "rate", "out", "html", "csv", "junit"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			flags[name] = f.Value.String()
		}
	}
	for _, arg := range cmd.Flags().Args() {
		if matches, _ := filepath.Glob(filepath.Join("../..", arg)); len(matches) == 0 {
			t.Errorf("%s: %q names %s, which the repository does not have", file, line, arg)
		}
	}
	return cmd.Name(), flags, cmd.Flags().Args()
}

func readYAML(t *testing.T, file string, into any, strict bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../..", file))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(strict)
	if err := dec.Decode(into); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// ghWorkflow is what the tests read of a GitHub workflow.
type ghWorkflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]struct {
		Services map[string]struct {
			Image string   `yaml:"image"`
			Ports []string `yaml:"ports"`
		} `yaml:"services"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// The project's CI runs make test on every push and pull request.
func TestHostedCIRunsMakeTest(t *testing.T) {
	var w ghWorkflow
	readYAML(t, ".github/workflows/ci.yml", &w, false)
	if _, ok := w.On["push"]; !ok {
		t.Error("ci.yml does not run on push")
	}
	if _, ok := w.On["pull_request"]; !ok {
		t.Error("ci.yml does not run on pull requests")
	}
	runs := 0
	for _, j := range w.Jobs {
		for _, s := range j.Steps {
			if strings.TrimSpace(s.Run) == "make test" {
				runs++
			}
		}
	}
	if runs != 1 {
		t.Errorf("ci.yml runs make test %d times, want once", runs)
	}
}

// The GitHub recipe parses, runs tablestress against its Azurite service
// with scenarios that exist and flags the commands accept, and
// publishes, whatever the runs' outcome, the JUnit files they write.
func TestGitHubRecipe(t *testing.T) {
	const file = ".github/workflows/tablestress.yml"
	var w ghWorkflow
	readYAML(t, file, &w, false)
	job, ok := w.Jobs["load-test"]
	if !ok {
		t.Fatalf("%s: no load-test job", file)
	}
	az := job.Services["azurite"]
	if !strings.HasPrefix(az.Image, "mcr.microsoft.com/azure-storage/azurite:") || len(az.Ports) != 1 || az.Ports[0] != "10002:10002" {
		t.Errorf("%s: the azurite service: %+v", file, az)
	}
	var junits, published, kept []string
	for _, s := range job.Steps {
		if strings.HasPrefix(strings.TrimSpace(s.Run), "bin/tablestress ") {
			name, flags, _ := recipeCommand(t, file, s.Run)
			if name == "run" && flags["target"] != "azurite" {
				t.Errorf("%s: the run goes to %q, not the azurite service", file, flags["target"])
			}
			if flags["junit"] != "" {
				junits = append(junits, flags["junit"])
			}
		}
		if strings.HasPrefix(s.Uses, "EnricoMi/publish-unit-test-result-action@") {
			published = strings.Fields(s.With["files"])
			if s.If != "${{ !cancelled() }}" {
				t.Errorf("%s: the results are published only if %q: a failed threshold fails its step, and they must be published then too", file, s.If)
			}
		}
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			kept = strings.Fields(s.With["path"])
		}
	}
	if len(junits) != 2 {
		t.Errorf("%s: %d commands write --junit, want the run and the comparison", file, len(junits))
	}
	for _, j := range junits {
		if !contains(published, j) || !contains(kept, j) {
			t.Errorf("%s: %s is written but not published (%v) or kept (%v)", file, j, published, kept)
		}
	}
}

// azPipeline is the part of the Azure Pipelines YAML schema the recipe
// uses, decoded strictly: a key the schema does not have fails.
type azPipeline struct {
	Trigger   []string `yaml:"trigger"`
	PR        []string `yaml:"pr"`
	Resources struct {
		Containers []struct {
			Container string   `yaml:"container"`
			Image     string   `yaml:"image"`
			Ports     []string `yaml:"ports"`
		} `yaml:"containers"`
	} `yaml:"resources"`
	Jobs []struct {
		Job         string `yaml:"job"`
		DisplayName string `yaml:"displayName"`
		Pool        struct {
			VMImage string `yaml:"vmImage"`
		} `yaml:"pool"`
		Services  map[string]string `yaml:"services"`
		Variables map[string]string `yaml:"variables"`
		Steps     []azStep          `yaml:"steps"`
	} `yaml:"jobs"`
}

type azStep struct {
	Checkout    string            `yaml:"checkout"`
	Task        string            `yaml:"task"`
	Script      string            `yaml:"script"`
	Publish     string            `yaml:"publish"`
	Artifact    string            `yaml:"artifact"`
	Inputs      map[string]string `yaml:"inputs"`
	DisplayName string            `yaml:"displayName"`
	Condition   string            `yaml:"condition"`
}

// azTaskInputs are the inputs of the tasks the recipe uses, as the Azure
// Pipelines schema lists them (service-schema.json of
// microsoft/azure-pipelines-vscode, v1.261.1).
var azTaskInputs = map[string][]string{
	"GoTool@0": {"version", "goPath", "goBin"},
	"PublishTestResults@2": {"testResultsFormat", "testRunner", "testResultsFiles", "searchFolder", "mergeTestResults", "failTaskOnFailedTests",
		"failTaskOnFailureToPublishResults", "failTaskOnMissingResultsFile", "testRunTitle", "buildPlatform", "platform", "buildConfiguration",
		"configuration", "publishRunAttachments"},
}

// The Azure Pipelines recipe decodes strictly, uses its tasks' inputs,
// runs tablestress against its Azurite service container, and publishes
// the JUnit files it writes with PublishTestResults@2 whatever the runs'
// outcome.
func TestAzurePipelinesRecipe(t *testing.T) {
	const file = "deploy/azure-pipelines/tablestress.yml"
	var p azPipeline
	readYAML(t, file, &p, true)
	if len(p.Jobs) != 1 || len(p.Resources.Containers) != 1 {
		t.Fatalf("%s: want one job and one container resource: %+v", file, p)
	}
	job, az := p.Jobs[0], p.Resources.Containers[0]
	if job.Services["azurite"] != az.Container || !strings.HasPrefix(az.Image, "mcr.microsoft.com/azure-storage/azurite:") ||
		len(az.Ports) != 1 || az.Ports[0] != "10002:10002" {
		t.Errorf("%s: the azurite service container: %+v, services %v", file, az, job.Services)
	}
	expand := strings.NewReplacer("$(out)", job.Variables["out"])
	var junits []string
	published := false
	for i, s := range job.Steps {
		kinds := 0
		for _, v := range []string{s.Checkout, s.Task, s.Script, s.Publish} {
			if v != "" {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: step %d is not one of checkout, task, script or publish: %+v", file, i+1, s)
		}
		if s.Task != "" {
			allowed, ok := azTaskInputs[s.Task]
			if !ok {
				t.Errorf("%s: step %d: task %s is not one the test knows the inputs of", file, i+1, s.Task)
			}
			for in := range s.Inputs {
				if !contains(allowed, in) {
					t.Errorf("%s: step %d: %s has no input %q", file, i+1, s.Task, in)
				}
			}
		}
		if strings.HasPrefix(s.Script, "bin/tablestress ") {
			name, flags, _ := recipeCommand(t, file, s.Script)
			if name == "run" && flags["target"] != "azurite" {
				t.Errorf("%s: the run goes to %q, not the azurite service", file, flags["target"])
			}
			if flags["junit"] != "" {
				junits = append(junits, expand.Replace(flags["junit"]))
			}
		}
		if s.Task == "PublishTestResults@2" {
			published = true
			if s.Inputs["testResultsFormat"] != "JUnit" || s.Condition != "succeededOrFailed()" {
				t.Errorf("%s: PublishTestResults@2 must read JUnit and run when a threshold failed: %+v", file, s)
			}
			for _, j := range junits {
				dir := expand.Replace(s.Inputs["searchFolder"])
				if ok, _ := path.Match(path.Join(dir, s.Inputs["testResultsFiles"]), j); !ok {
					t.Errorf("%s: %s is written but PublishTestResults@2 looks for %s in %s", file, j, s.Inputs["testResultsFiles"], dir)
				}
			}
		}
	}
	if len(junits) != 2 || !published {
		t.Errorf("%s: %d commands write --junit (want the run and the comparison), published: %v", file, len(junits), published)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
