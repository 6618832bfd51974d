// tablestress HTML report: draws the charts of every run from the embedded
// data. Errors are recorded on <body data-errors>, and the number of charts
// drawn on <body data-charts>, so headless tests can check the page.
(function () {
  "use strict";
  var errors = [];
  function fail(msg) {
    errors.push(String(msg));
    document.body.setAttribute("data-errors", errors.join(" | "));
  }
  window.addEventListener("error", function (e) { fail(e.message); });
  var drawn = 0;
  var target = 2000;
  var palette = ["#2f6fde", "#e8710a", "#1e8e3e", "#d93025", "#9334e6", "#12b5cb", "#f9ab00", "#5f6368"];

  function chart(id, option) {
    var el = document.getElementById(id);
    if (!el) { fail("no element " + id); return; }
    var c = echarts.init(el, null, { renderer: "canvas" });
    option.color = option.color || palette;
    option.animation = false;
    c.setOption(option);
    drawn++;
    window.addEventListener("resize", function () { c.resize(); });
  }

  function seconds(run) { return run.intervals.map(function (iv) { return iv.second + 1; }); }

  function throughput(run, id) {
    var ivs = run.intervals;
    chart(id, {
      title: { text: "Throughput and throttling per second", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 60, bottom: 40 },
      xAxis: { type: "category", name: "s", data: seconds(run) },
      yAxis: [{ type: "value", name: "per second" }, { type: "value", name: "requests" }],
      series: [
        { name: "operations/s", type: "line", showSymbol: false, data: ivs.map(function (i) { return i.ops; }) },
        { name: "entities/s", type: "line", showSymbol: false, data: ivs.map(function (i) { return i.entities; }) },
        { name: "throttled", type: "bar", yAxisIndex: 1, stack: "bad", data: ivs.map(function (i) { return i.throttled; }) },
        { name: "other errors", type: "bar", yAxisIndex: 1, stack: "bad", data: ivs.map(function (i) { return i.errors; }) },
        { name: "dropped", type: "bar", yAxisIndex: 1, stack: "bad", data: ivs.map(function (i) { return i.dropped; }) }
      ]
    });
  }

  function latency(run, id) {
    var ivs = run.intervals;
    function s(name, key) {
      return { name: name, type: "line", showSymbol: false, data: ivs.map(function (i) { return i[key] > 0 ? i[key] : null; }) };
    }
    chart(id, {
      title: { text: "Latency percentiles per second (ms)", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 30, bottom: 40 },
      xAxis: { type: "category", name: "s", data: seconds(run) },
      yAxis: { type: "log", name: "ms", logBase: 10 },
      series: [s("p50", "p50_ms"), s("p90", "p90_ms"), s("p99", "p99_ms"), s("max", "max_ms")]
    });
  }

  function heatmap(run, id) {
    var h = run.heatmap;
    if (!h || !h.partitions || h.partitions.length === 0) { return; }
    var rows = h.partitions.slice(0, 40);
    var bins = 0;
    rows.forEach(function (_, p) { bins = Math.max(bins, h.entities[p].length); });
    var data = [];
    var maxRate = 0;
    rows.forEach(function (_, p) {
      h.entities[p].forEach(function (n, b) {
        var r = n / h.bin_s;
        maxRate = Math.max(maxRate, r);
        data.push([b, p, Math.round(r)]);
      });
    });
    var xs = [];
    for (var b = 0; b < bins; b++) { xs.push(String(b * h.bin_s)); }
    chart(id, {
      title: { text: "Partition heatmap: entities/s per partition and time (target " + target + ")", textStyle: { fontSize: 13 } },
      tooltip: { formatter: function (p) { return rows[p.value[1]] + " at " + xs[p.value[0]] + "s: " + p.value[2] + " entities/s"; } },
      grid: { top: 40, left: 170, right: 30, bottom: 80 },
      xAxis: { type: "category", name: "s", data: xs },
      yAxis: { type: "category", data: rows, inverse: true, axisLabel: { width: 150, overflow: "truncate" } },
      visualMap: { type: "piecewise", orient: "horizontal", left: "center", bottom: 5,
        pieces: [
          { lt: target * 0.5, label: "< 50% of target", color: "#c6dbef" },
          { gte: target * 0.5, lt: target * 0.9, label: "50-90%", color: "#6baed6" },
          { gte: target * 0.9, lte: target * 1.05, label: "at target (" + target + "/s)", color: "#f9ab00" },
          { gt: target * 1.05, label: "over target", color: "#d93025" }
        ] },
      series: [{ type: "heatmap", data: data }]
    });
  }

  function distribution(run, id) {
    var parts = run.partitions.filter(function (p) { return p.partition_key !== "*"; }).slice(0, 200);
    if (parts.length === 0) { return; }
    chart(id, {
      title: { text: "Partition load, busiest first (" + run.partitions.length + " partitions)", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 30, bottom: 40 },
      xAxis: { type: "category", data: parts.map(function (p) { return p.partition_key; }), axisLabel: { show: parts.length <= 30, rotate: 30 } },
      yAxis: { type: "value", name: "entities/s" },
      series: [
        { name: "mean entities/s", type: "bar", data: parts.map(function (p) { return Math.round(p.entities_per_sec); }) },
        { name: "peak entities/s", type: "line", showSymbol: false, data: parts.map(function (p) { return p.peak_entities_per_sec; }),
          markLine: { symbol: "none", lineStyle: { color: "#d93025", type: "dashed" }, data: [{ yAxis: target, name: "target" }],
            label: { formatter: "target " + target + "/s" } } }
      ]
    });
  }

  function operations(run, id) {
    var ops = Object.keys(run.operations);
    if (ops.length === 0) { return; }
    var keys = [["p50", "p50"], ["p90", "p90"], ["p99", "p99"], ["p999", "p99.9"], ["max", "max"]];
    chart(id, {
      title: { text: "Latency by operation (ms)", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 30, bottom: 40 },
      xAxis: { type: "category", data: ops },
      yAxis: { type: "log", name: "ms" },
      series: keys.map(function (k) {
        return { name: k[1], type: "bar", data: ops.map(function (op) { var v = run.operations[op].latency_ms[k[0]]; return v > 0 ? v : null; }) };
      })
    });
  }

  function comparison(runs, id) {
    var maxLen = 0;
    runs.forEach(function (r) { maxLen = Math.max(maxLen, r.intervals.length); });
    var xs = [];
    for (var i = 1; i <= maxLen; i++) { xs.push(i); }
    chart(id, {
      title: { text: "Entities/s per second, by scheme", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 30, bottom: 40 },
      xAxis: { type: "category", name: "s", data: xs },
      yAxis: { type: "value", name: "entities/s" },
      series: runs.map(function (r) {
        return { name: r.scheme, type: "line", showSymbol: false, data: r.intervals.map(function (iv) { return iv.entities; }) };
      })
    });
    chart(id + "-peak", {
      title: { text: "Busiest partition's peak and throttled share, by scheme", textStyle: { fontSize: 13 } },
      tooltip: { trigger: "axis" },
      legend: { top: 22 },
      grid: { top: 60, left: 60, right: 60, bottom: 40 },
      xAxis: { type: "category", data: runs.map(function (r) { return r.scheme; }) },
      yAxis: [{ type: "value", name: "entities/s" }, { type: "value", name: "% throttled", max: 100 }],
      series: [
        { name: "busiest peak", type: "bar", data: runs.map(function (r) {
            var m = 0; r.partitions.forEach(function (p) { if (p.partition_key !== "*") { m = Math.max(m, p.peak_entities_per_sec); } }); return m; }),
          markLine: { symbol: "none", lineStyle: { color: "#d93025", type: "dashed" }, data: [{ yAxis: target }], label: { formatter: "target" } } },
        { name: "% throttled", type: "bar", yAxisIndex: 1, data: runs.map(function (r) {
            return r.totals.requests ? Math.round(1000 * r.totals.throttled / r.totals.requests) / 10 : 0; }) }
      ]
    });
  }

  try {
    var data = JSON.parse(document.getElementById("tablestress-data").textContent);
    if (data.runs.length > 0 && data.runs[0].run && data.runs[0].run.partition_target) { target = data.runs[0].run.partition_target; }
    if (data.runs.length > 1) { comparison(data.runs, "compare"); }
    data.runs.forEach(function (run, i) {
      if (run.intervals.length > 0) {
        throughput(run, "throughput-" + i);
        latency(run, "latency-" + i);
      }
      heatmap(run, "heatmap-" + i);
      distribution(run, "distribution-" + i);
      operations(run, "operations-" + i);
    });
  } catch (e) {
    fail(e && e.stack ? e.stack : e);
  }
  document.body.setAttribute("data-charts", String(drawn));
})();
