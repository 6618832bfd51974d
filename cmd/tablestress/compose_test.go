package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/tablestress/tablestress/pkg/table"
)

// docker-compose.yml parses, wires tablestress to the Azurite service, and
// runs a scenario that exists with flags the run command accepts.
func TestDockerComposeFile(t *testing.T) {
	data, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			Build       any               `yaml:"build"`
			Command     []string          `yaml:"command"`
			Environment map[string]string `yaml:"environment"`
			Ports       []string          `yaml:"ports"`
			DependsOn   map[string]any    `yaml:"depends_on"`
			Volumes     []string          `yaml:"volumes"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("docker-compose.yml does not parse: %v", err)
	}
	az, ok := doc.Services["azurite"]
	if !ok || !strings.Contains(az.Image, "azurite:3.37.0") || !strings.Contains(strings.Join(az.Command, " "), "--tablePort 10002") {
		t.Errorf("azurite service: %+v", az)
	}
	ts, ok := doc.Services["tablestress"]
	if !ok || ts.Build == nil || ts.DependsOn["azurite"] == nil {
		t.Fatalf("tablestress service: %+v", ts)
	}
	tg, err := table.ParseTarget(ts.Environment["TABLESTRESS_TARGET"])
	if err != nil || !strings.HasPrefix(tg.Endpoint, "http://azurite:10002/") {
		t.Errorf("TABLESTRESS_TARGET: %v %v", tg, err)
	}
	if len(ts.Command) < 2 || ts.Command[0] != "run" {
		t.Fatalf("command %v", ts.Command)
	}
	local := filepath.Join("../..", strings.TrimPrefix(ts.Command[1], "/"))
	if _, err := os.Stat(local); err != nil {
		t.Errorf("the compose file runs %s, which the repository does not have", ts.Command[1])
	}
	// The flags parse with the real command.
	cmd := newRunCmd(&env{})
	if err := cmd.ParseFlags(ts.Command[2:]); err != nil {
		t.Errorf("flags %v: %v", ts.Command[2:], err)
	}
}
