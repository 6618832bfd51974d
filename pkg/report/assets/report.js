// tablestress HTML report: draws the charts of every run from the embedded
// data. Script errors, console errors and warnings (ECharts reports bad
// options there) are recorded on <body data-errors>; the number of charts
// drawn on <body data-charts>, the chart elements left without a canvas on
// <body data-missing>, the last entities/s of each throughput chart on
// <body data-last-entities>, the page's width when it is wider than the
// window (a table that does not wrap) on <body data-overflow>, its height
// on <body data-height>, and each chart's coloured pixels inside its grid
// and where that grid lies on <body data-ink> and <body data-grids>, so
// headless tests can check the page.
(function () {
  "use strict";
  var errors = [];
  function fail(msg) {
    errors.push(String(msg));
    document.body.setAttribute("data-errors", errors.join(" | "));
  }
  window.addEventListener("error", function (e) { fail(e.message); });
  ["error", "warn"].forEach(function (level) {
    var orig = console[level];
    console[level] = function () {
      fail("console." + level + ": " + Array.prototype.join.call(arguments, " "));
      if (orig) { orig.apply(console, arguments); }
    };
  });
  var drawn = 0;
  var charts = []; // {el, c}: every chart drawn, for measure
  var target = 2000;
  var palette = ["#2f6fde", "#e8710a", "#1e8e3e", "#9334e6", "#12b5cb", "#f9ab00", "#5f6368", "#d93025"];
  var warnColor = "#e8710a", errorColor = "#b42318", dropColor = "#7f8c8d", targetColor = "#d93025";
  var fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

  function chart(id, option) {
    var el = document.getElementById(id);
    if (!el) { fail("no element " + id); return; }
    var c = echarts.init(el, null, { renderer: "canvas" });
    option.color = option.color || palette;
    option.animation = false;
    option.textStyle = { fontFamily: "system-ui, sans-serif" };
    c.setOption(option);
    charts.push({ el: el, c: c });
    drawn++;
    window.addEventListener("resize", function () { c.resize(); });
  }

  function title(text) { return { text: text, left: 0, textStyle: { fontSize: 13 } }; }
  function grid(right) { return { top: 72, left: 12, right: right || 24, bottom: 30, containLabel: true }; }
  // logAxis is a logarithmic value axis from the power of ten below the
  // smallest of values (strictly below: a value of exactly 1 ms would
  // otherwise be a bar of no height, a line on the axis); bars start there
  // too (startValue: ECharts starts them at 1 and draws smaller values
  // downwards).
  function logAxis(name, values) {
    var low = Infinity, high = 0;
    values.forEach(function (v) { if (v > 0) { low = Math.min(low, v); high = Math.max(high, v); } });
    var floor = low === Infinity ? 1 : Math.pow(10, Math.floor(Math.log10(low)));
    if (floor >= low) { floor /= 10; }
    // and up to the power of ten above the largest, strictly above too, so
    // a line of values all alike is not drawn on the chart's edge
    var ceil = high > 0 ? Math.pow(10, Math.ceil(Math.log10(high))) : 10;
    if (ceil <= high) { ceil *= 10; }
    return { type: "log", name: name, logBase: 10, min: floor, max: ceil, startValue: floor };
  }
  function flat(series) {
    var out = [];
    series.forEach(function (s) { s.data.forEach(function (v) { out.push(v); }); });
    return out;
  }
  // A category axis of seconds since the measured window's start: the
  // figure of second s (0-based) is drawn at its end, s+1; bins likewise.
  function timeAxis(labels) {
    return { type: "category", name: "seconds", nameLocation: "middle", nameGap: 26, data: labels, axisTick: { alignWithLabel: true } };
  }
  function targetLine(axis) {
    var d = {}; d[axis] = target;
    return { symbol: "none", silent: true, lineStyle: { color: targetColor, type: "dashed" }, data: [d],
      label: { formatter: "target " + fmt.format(target) + "/s", position: "insideEndTop", color: targetColor } };
  }
  // aboveTarget is an axis maximum that leaves the target line and its
  // label inside the chart.
  function aboveTarget(v) { return Math.ceil(Math.max(v.max, target) * 1.15 / 100) * 100; }
  // shorten cuts a long key in the middle, so keys sharing a prefix stay apart.
  function shorten(s, n) {
    if (s.length <= n) { return s; }
    var head = Math.floor((n - 1) / 2);
    return s.slice(0, head) + "…" + s.slice(s.length - (n - 1 - head));
  }
  function label(pk) { return pk === "*" ? "(cross-partition)" : pk; }

  // secondsOf is how much of interval iv the measured window covers: its
  // seconds (1, or more for a long run's bins), or less for a last one cut
  // short (a run stopped early), so that per second figures are rates and
  // no chart drops at its end.
  function secondsOf(run, iv) { return Math.max(Math.min(run.interval_s, run.duration_s - iv.second), 0.001); }
  // ends are the labels of a run's intervals: the second each ends at.
  function ends(run) { return run.intervals.map(function (iv) { return fmt.format(Math.min(iv.second + run.interval_s, Math.ceil(run.duration_s))); }); }

  var lastRates = [];

  function throughput(run, id) {
    var ivs = run.intervals;
    function perSec(key) { return ivs.map(function (iv) { return Math.round(iv[key] / secondsOf(run, iv)); }); }
    var ents = perSec("entities");
    lastRates.push(id + ":" + ents[ents.length - 1]);
    document.body.setAttribute("data-last-entities", lastRates.join(" "));
    // share is key's share of of, in percent: of is a field, or a function
    // of the interval (the operations offered: run or dropped).
    function share(key, of) {
      return ivs.map(function (iv) {
        var whole = typeof of === "function" ? of(iv) : iv[of];
        return whole > 0 ? Math.round(1000 * iv[key] / whole) / 10 : 0;
      });
    }
    function offered(iv) { return iv.ops + iv.dropped; }
    chart(id, {
      title: title("Throughput per second, and the shares throttled, in error, failed and dropped"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(16),
      xAxis: timeAxis(ends(run)),
      yAxis: [{ type: "value", name: "per second", axisLabel: { formatter: function (v) { return fmt.format(v); } } },
        { type: "value", name: "share", min: 0, max: 100, axisLabel: { formatter: "{value}%" }, splitLine: { show: false } }],
      series: [
        { name: "ops/s", type: "line", showSymbol: false, data: perSec("ops") },
        { name: "entities/s", type: "line", showSymbol: false, data: ents, color: palette[2] },
        { name: "% throttled", type: "bar", yAxisIndex: 1, stack: "bad", color: warnColor, data: share("throttled", "requests") },
        { name: "% errors", type: "bar", yAxisIndex: 1, stack: "bad", color: errorColor, data: share("errors", "requests") },
        { name: "% failed", type: "line", yAxisIndex: 1, showSymbol: false, color: errorColor, lineStyle: { type: "dotted" }, data: share("failed", "ops") },
        { name: "% dropped", type: "line", yAxisIndex: 1, showSymbol: false, color: dropColor, lineStyle: { type: "dashed" }, data: share("dropped", offered) }
      ]
    });
  }

  function latency(run, id) {
    var ivs = run.intervals;
    function s(name, key) {
      return { name: name, type: "line", showSymbol: false, data: ivs.map(function (i) { return i[key] > 0 ? i[key] : null; }) };
    }
    var lines = [s("p50", "p50_ms"), s("p90", "p90_ms"), s("p99", "p99_ms"), s("max", "max_ms")];
    chart(id, {
      title: title(run.interval_s > 1 ? "Latency of the answered operations (ms): the highest second's of every " + run.interval_s + " s" :
        "Latency percentiles per second of the answered operations (ms)"),
      tooltip: { trigger: "axis", valueFormatter: function (v) { return v === null ? "-" : fmt.format(v) + " ms"; } },
      legend: { top: 24 },
      grid: grid(),
      xAxis: timeAxis(ends(run)),
      yAxis: logAxis("ms", flat(lines)),
      series: lines
    });
  }

  // heatmap draws the entities/s of the partitions the report names, and
  // of the rest on average in one row; a bin in which a partition served
  // nothing is left empty.
  function heatmap(run, id) {
    var h = run.heatmap;
    if (!h || !h.partitions || h.partitions.length === 0) { return; }
    var bins = 0;
    h.entities.forEach(function (row) { bins = Math.max(bins, row.length); });
    function binSeconds(b) { return Math.max(Math.min(h.bin_s, run.duration_s - b * h.bin_s), 0.001); }
    var rows = h.partitions.map(function (pk) { return label(pk); });
    var data = [];
    function put(b, row, entities, text) {
      var r = entities / binSeconds(b);
      if (r > 0) { data.push([b, row, Math.log10(Math.max(r, 1)), r, text]); }
    }
    h.partitions.forEach(function (pk, p) {
      h.entities[p].forEach(function (n, b) { put(b, p, n, rows[p]); });
    });
    if (h.other && h.other_count > 0) {
      var other = rows.length;
      rows.push("other " + fmt.format(h.other_count) + " partitions (mean)");
      h.other.forEach(function (n, b) { put(b, other, n, "the other " + fmt.format(h.other_count) + " partitions, per partition"); });
    }
    var xs = [];
    for (var k = 0; k < bins; k++) { xs.push(fmt.format((k + 1) * h.bin_s)); }
    // Logarithmic colour scale from 1 entity/s to well over the target:
    // blues (a light one at 1/s, still visible against the page) up to a
    // fifth of the target, turning through purple to red at the target
    // (80% of the scale), dark red beyond.
    var top = Math.log10(target) / 0.8;
    chart(id, {
      title: title("Partition heatmap: entities/s per partition (busiest " + h.partitions.length + ") against the " + fmt.format(target) + "/s target"),
      tooltip: { formatter: function (p) { return p.value[4] + "<br>" + xs[p.value[0]] + " s: " + fmt.format(p.value[3]) + " entities/s"; } },
      grid: { top: 40, left: 12, right: 90, bottom: 40, containLabel: true },
      xAxis: timeAxis(xs),
      yAxis: { type: "category", data: rows, inverse: true, axisLabel: { formatter: function (v) { return shorten(v, 34); } } },
      visualMap: { type: "continuous", min: 0, max: top, dimension: 2, orient: "vertical", right: 0, top: "middle", calculable: false,
        text: [fmt.format(Math.round(Math.pow(10, top))) + "/s", "1/s"], itemHeight: 200,
        inRange: { color: ["#9ecae1", "#6baed6", "#3d5fc4", "#d7301f", "#67000d"] },
        formatter: function (v) { return fmt.format(Math.round(Math.pow(10, v))); } },
      series: [{ type: "heatmap", data: data, progressive: 0 }]
    });
  }

  function distribution(run, id) {
    var parts = run.partitions.filter(function (p) { return p.partition_key !== "*"; }).slice(0, 40);
    if (parts.length === 0) { return; }
    chart(id, {
      title: title("Busiest partitions: mean and peak entities/s (" + fmt.format(run.partition_count) + " partitions)"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(),
      xAxis: { type: "category", data: parts.map(function (p) { return p.partition_key; }),
        axisLabel: { show: parts.length <= 20, rotate: 30, formatter: function (v) { return shorten(v, 18); } } },
      yAxis: { type: "value", name: "entities/s", max: aboveTarget, axisLabel: { formatter: function (v) { return fmt.format(v); } } },
      series: [
        { name: "mean entities/s", type: "bar", data: parts.map(function (p) { return Math.round(p.entities_per_sec); }) },
        { name: "peak entities/s", type: "line", showSymbol: parts.length <= 20, data: parts.map(function (p) { return p.peak_entities_per_sec; }),
          markLine: targetLine("yAxis") }
      ]
    });
  }

  // units draws a run charged in request units: its busiest partitions by
  // peak RU/s, mean and peak, against a physical partition's share of the
  // provisioned throughput when it is known.
  function units(run, id) {
    var parts = run.partitions.filter(function (p) { return p.partition_key !== "*" && p.peak_request_units_per_sec !== undefined; })
      .sort(function (a, b) { return b.peak_request_units_per_sec - a.peak_request_units_per_sec; }).slice(0, 40);
    if (parts.length === 0) { return; }
    var share = run.run.partition_request_units || 0;
    var line = { symbol: "none", silent: true, lineStyle: { color: targetColor, type: "dashed" }, data: share > 0 ? [{ yAxis: share }] : [],
      label: { formatter: "share " + fmt.format(share) + " RU/s", position: "insideEndTop", color: targetColor } };
    chart(id, {
      title: title("Busiest partitions: mean and peak request units/s"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(),
      xAxis: { type: "category", data: parts.map(function (p) { return p.partition_key; }),
        axisLabel: { show: parts.length <= 20, rotate: 30, formatter: function (v) { return shorten(v, 18); } } },
      yAxis: { type: "value", name: "RU/s", max: function (v) { return Math.ceil(Math.max(v.max, share) * 1.15); },
        axisLabel: { formatter: function (v) { return fmt.format(v); } } },
      series: [
        { name: "mean RU/s", type: "bar", data: parts.map(function (p) { return Math.round(p.request_units_per_sec); }) },
        { name: "peak RU/s", type: "line", showSymbol: parts.length <= 20, data: parts.map(function (p) { return p.peak_request_units_per_sec; }),
          markLine: line }
      ]
    });
  }

  var latencyKeys = [["p50", "p50"], ["p90", "p90"], ["p99", "p99"], ["p999", "p99.9"], ["max", "max"]];

  function operations(run, id) {
    var ops = Object.keys(run.operations);
    if (ops.length === 0) { return; }
    var bars = latencyKeys.map(function (k) {
      return { name: k[1], type: "bar", data: ops.map(function (op) { var v = run.operations[op].latency_ms[k[0]]; return v > 0 ? v : null; }) };
    });
    chart(id, {
      title: title("Latency by operation (ms)"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(),
      xAxis: { type: "category", data: ops, axisLabel: { interval: 0 } },
      yAxis: logAxis("ms", flat(bars)),
      series: bars
    });
  }

  function findSteps(run, id) {
    var f = run.find;
    if (!f || !f.steps || f.steps.length === 0) { return; }
    var steps = f.steps.slice().sort(function (a, b) { return a.rate - b.rate; });
    chart(id, {
      title: title("Finding the limit: entities/s served at each offered rate"),
      tooltip: { trigger: "item", formatter: function (p) {
        var s = steps[p.dataIndex];
        return fmt.format(s.rate) + " ops/s offered: " + fmt.format(s.entities_per_sec) + " entities/s, " +
          fmt.format(s.throttled_pct) + "% throttled" + (s.ok ? "" : "<br>failed: " + s.why); } },
      grid: grid(),
      xAxis: { type: "category", name: "offered operations/s", nameLocation: "middle", nameGap: 26,
        data: steps.map(function (s) { return fmt.format(s.rate); }) },
      yAxis: { type: "value", name: "entities/s", axisLabel: { formatter: function (v) { return fmt.format(v); } } },
      series: [{ type: "bar", name: "entities/s", label: { show: true, position: "top", formatter: function (p) { return steps[p.dataIndex].ok ? "ok" : "fail"; } },
        data: steps.map(function (s) { return { value: Math.round(s.entities_per_sec), itemStyle: { color: s.ok ? palette[2] : warnColor } }; }) }]
    });
  }

  function comparison(runs, id) {
    var xs = [], longest = runs[0];
    runs.forEach(function (r) { if (r.intervals.length * r.interval_s > longest.intervals.length * longest.interval_s) { longest = r; } });
    longest.intervals.forEach(function (iv) { xs.push(fmt.format(iv.second + longest.interval_s)); });
    var names = runs.map(function (r) { return r.scheme; });
    chart(id, {
      title: title("Answered entities/s per second, by scheme"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(),
      xAxis: timeAxis(xs),
      yAxis: { type: "value", name: "entities/s", axisLabel: { formatter: function (v) { return fmt.format(v); } } },
      series: runs.map(function (r) {
        return { name: r.scheme, type: "line", showSymbol: false, data: r.intervals.map(function (iv) { return [fmt.format(iv.second + r.interval_s), Math.round((iv.answered_entities || 0) / secondsOf(r, iv))]; }) };
      })
    });
    chart(id + "-peak", {
      title: title("Busiest partition's peak, and the share of requests throttled"),
      tooltip: { trigger: "axis" },
      legend: { top: 24 },
      grid: grid(16),
      xAxis: { type: "category", data: names, axisLabel: { interval: 0, formatter: function (v) { return shorten(v, 20); } } },
      yAxis: [{ type: "value", name: "entities/s", max: aboveTarget, axisLabel: { formatter: function (v) { return fmt.format(v); } } },
        { type: "value", name: "% throttled", min: 0, max: 100, axisLabel: { formatter: "{value}%" }, splitLine: { show: false } }],
      series: [
        { name: "busiest peak entities/s", type: "bar", data: runs.map(function (r) { return r.busiest_peak; }),
          markLine: targetLine("yAxis") },
        { name: "% throttled", type: "bar", yAxisIndex: 1, color: warnColor, data: runs.map(function (r) {
            return r.totals.requests ? Math.round(1000 * r.totals.throttled / r.totals.requests) / 10 : 0; }) }
      ]
    });
    chart(id + "-spread", {
      title: title("How load spreads: each partition's peak entities/s, busiest first"),
      tooltip: { trigger: "axis", valueFormatter: function (v) { return fmt.format(v) + " entities/s"; } },
      legend: { top: 24 },
      grid: grid(),
      xAxis: { type: "value", name: "partitions, busiest first (% of the scheme's partitions)", nameLocation: "middle", nameGap: 26, min: 0, max: 100,
        axisLabel: { formatter: "{value}%" } },
      yAxis: { type: "log", name: "peak/s", min: 1 },
      series: runs.map(function (r, k) {
        return { name: r.scheme + " (" + fmt.format(r.partition_count) + ")", type: "line", step: "end", showSymbol: r.spread.length < 3,
          symbolSize: 8, data: r.spread, markLine: k === 0 ? targetLine("yAxis") : undefined };
      })
    });
    var ops = [];
    runs.forEach(function (r) { Object.keys(r.operations).forEach(function (op) { if (ops.indexOf(op) < 0) { ops.push(op); } }); });
    var p99s = runs.map(function (r) {
      return { name: r.scheme, type: "bar", data: ops.map(function (op) { var s = r.operations[op]; return s && s.latency_ms.p99 > 0 ? s.latency_ms.p99 : null; }) };
    });
    chart(id + "-latency", {
      title: title("Latency by operation and scheme: p99 (bars), p50 to p99.9 in the tooltip"),
      tooltip: { trigger: "axis", formatter: function (ps) {
        return ps.map(function (p) {
          var s = runs[p.seriesIndex].operations[ops[p.dataIndex]];
          if (!s) { return p.seriesName + ": -"; }
          var l = s.latency_ms;
          return p.seriesName + ": p50 " + fmt.format(l.p50) + ", p99 " + fmt.format(l.p99) + ", p99.9 " + fmt.format(l.p999) + " ms";
        }).join("<br>"); } },
      legend: { top: 24 },
      grid: grid(),
      xAxis: { type: "category", data: ops, axisLabel: { interval: 0 } },
      yAxis: logAxis("p99 ms", flat(p99s)),
      series: p99s
    });
  }

  // questions draws, per question and scheme, the requests per question
  // (bars) and the p99 of the whole question (dots).
  function questions(runs, id) {
    if (!document.getElementById(id)) { return; }
    var names = [];
    runs.forEach(function (r) { Object.keys(r.questions || {}).forEach(function (q) { if (names.indexOf(q) < 0) { names.push(q); } }); });
    names.sort();
    var series = [];
    runs.forEach(function (r) {
      var qs = r.questions || {};
      series.push({ name: r.scheme + " requests/question", type: "bar", data: names.map(function (n) { var q = qs[n]; return q && q.ops ? q.requests_per_question : null; }) });
    });
    runs.forEach(function (r) {
      var qs = r.questions || {};
      series.push({ name: r.scheme + " p99 ms", type: "scatter", yAxisIndex: 1, symbolSize: 10,
        data: names.map(function (n) { var q = qs[n]; return q && q.ops && q.latency_ms.p99 > 0 ? q.latency_ms.p99 : null; }) });
    });
    chart(id, {
      title: title("Questions: requests per question (bars) and p99 ms (dots), by scheme"),
      tooltip: { trigger: "axis", formatter: function (ps) {
        return ps.map(function (p) {
          var r = runs[p.seriesIndex % runs.length], q = (r.questions || {})[names[p.dataIndex]];
          if (!q || !q.ops) { return p.seriesName + ": -"; }
          return p.seriesName + ": " + fmt.format(p.value) + " (" + q.plan + (q.scope ? " " + q.scope : "") + ", " + fmt.format(q.rows_visited_per_question) + " rows visited)";
        }).join("<br>"); } },
      legend: { top: 24, type: "scroll" },
      grid: grid(24),
      xAxis: { type: "category", data: names, axisLabel: { interval: 0 } },
      yAxis: [{ type: "log", name: "requests", min: 1 }, { type: "log", name: "p99 ms", min: 1, splitLine: { show: false } }],
      series: series
    });
  }

  try {
    var data = JSON.parse(document.getElementById("tablestress-data").textContent);
    if (data.runs.length > 0 && data.runs[0].run && data.runs[0].run.partition_target) { target = data.runs[0].run.partition_target; }
    if (data.runs.length > 1) { comparison(data.runs, "compare"); questions(data.runs, "compare-questions"); }
    data.runs.forEach(function (run, i) {
      if (run.intervals.length > 0) {
        throughput(run, "throughput-" + i);
        latency(run, "latency-" + i);
      }
      heatmap(run, "heatmap-" + i);
      distribution(run, "distribution-" + i);
      units(run, "units-" + i);
      operations(run, "operations-" + i);
      findSteps(run, "find-" + i);
    });
  } catch (e) {
    fail(e && e.stack ? e.stack : e);
  }
  // gridOf is where chart c plots, in its element's pixels: its grid's
  // rectangle (ECharts' coordinate system of grid 0), or the whole element.
  function gridOf(k) {
    var g = k.c.getModel().getComponent("grid", 0);
    if (g && g.coordinateSystem) { return g.coordinateSystem.getRect(); }
    return { x: 0, y: 0, width: k.el.clientWidth, height: k.el.clientHeight };
  }
  // inkOf counts the coloured pixels (not white, grey or black: the
  // series' colours, not the axes' and labels') chart k drew inside its
  // grid, in CSS pixels.
  function inkOf(k, g) {
    var n = 0;
    k.el.querySelectorAll("canvas").forEach(function (cv) {
      var ratio = cv.width / Math.max(cv.clientWidth, 1);
      var w = Math.round(g.width * ratio), h = Math.round(g.height * ratio);
      if (w < 1 || h < 1) { return; }
      var px = cv.getContext("2d").getImageData(Math.round(g.x * ratio), Math.round(g.y * ratio), w, h).data;
      var coloured = 0;
      for (var i = 0; i < px.length; i += 4) {
        var hi = Math.max(px[i], px[i + 1], px[i + 2]), lo = Math.min(px[i], px[i + 1], px[i + 2]);
        if (px[i + 3] > 128 && hi - lo > 40) { coloured++; }
      }
      n += coloured / (ratio * ratio);
    });
    return Math.round(n);
  }
  // measure records, for the tests, each chart's ink inside its grid and
  // the grid's area (data-ink="id:ink/area ..."), where each grid lies on
  // the page (data-grids="id:x,y,w,h ..."), the page's height, the chart
  // elements left without a canvas, the page's width when wider than the
  // window, and, last, how many charts were drawn.
  function measure() {
    var inks = [], grids = [];
    charts.forEach(function (k) {
      var g = gridOf(k), r = k.el.getBoundingClientRect();
      inks.push(k.el.id + ":" + inkOf(k, g) + "/" + Math.round(g.width * g.height));
      grids.push(k.el.id + ":" + [r.left + window.scrollX + g.x, r.top + window.scrollY + g.y, g.width, g.height].map(Math.round).join(","));
    });
    document.body.setAttribute("data-ink", inks.join(" "));
    document.body.setAttribute("data-grids", grids.join(" "));
    var missing = [];
    document.querySelectorAll(".chart").forEach(function (el) { if (!el.querySelector("canvas")) { missing.push(el.id); } });
    if (missing.length > 0) { document.body.setAttribute("data-missing", missing.join(" ")); }
    var root = document.documentElement;
    document.body.setAttribute("data-height", String(root.scrollHeight));
    if (root.scrollWidth > root.clientWidth) { document.body.setAttribute("data-overflow", String(root.scrollWidth)); }
    document.body.setAttribute("data-charts", String(drawn));
  }
  // After the charts' first frame.
  window.setTimeout(function () {
    try { measure(); } catch (e) { fail(e && e.stack ? e.stack : e); document.body.setAttribute("data-charts", String(drawn)); }
  }, 100);
})();
