package io.dta.appliance.gate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The gate's result as one self-contained HTML file: the per-round rates of both sides and the ratio with its
 * interval as inline SVG charts, the latency percentiles when the rounds measured any, and both builds' contexts.
 * Nothing is fetched from anywhere when it is opened.
 */
public final class HtmlReport
{
    private static final String CANDIDATE_COLOUR = "#1f77b4";
    private static final String BASELINE_COLOUR = "#ff7f0e";
    private static final int WIDTH = 640;
    private static final int HEIGHT = 260;
    private static final int MARGIN = 72;

    private HtmlReport()
    {
    }

    /**
     * Writes the report whole or not at all (a temporary file beside it, then moved over it).
     *
     * @param result the gate's result.
     * @param file   where the report goes.
     * @throws IOException when it cannot be written.
     */
    public static void write(final BaselineGate.GateResult result, final Path file) throws IOException
    {
        final Path absolute = file.toAbsolutePath();
        final Path tmp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        try
        {
            Files.writeString(tmp, html(result), StandardCharsets.UTF_8);
            Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * @param result the gate's result.
     * @return the report's HTML.
     */
    public static String html(final BaselineGate.GateResult result)
    {
        final RatioInterval i = result.interval();
        final StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dta bench: candidate " +
            "against baseline</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:60em}" +
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;" +
            "vertical-align:top;font-size:90%;overflow-wrap:anywhere}svg{display:block;margin:1em 0}</style></head><body>\n");
        h.append("<h1>dta bench: candidate against baseline</h1>\n<p><code>dta bench ")
            .append(escape(String.join(" ", result.benchArgs()))).append("</code>, every round on CPU ")
            .append(escape(String.valueOf(result.pin().describe()))).append("</p>\n");
        h.append(String.format(Locale.ROOT, "<p id=\"verdict\"><b>%s</b> (exit %d): candidate / baseline = %.3f, " +
            "%d %% interval %.3f .. %.3f (bootstrap over %d rounds each); allowed down to %.3f.</p>%n",
            escape(result.verdict().name().toLowerCase(Locale.ROOT).replace('_', ' ')),
            result.verdict().exitStatus(), i.ratio(), Math.round(RatioInterval.CONFIDENCE * 100), i.low(), i.high(),
            result.candidateRounds().size(), Verdict.floor(result.maxRegressionPercent())));
        h.append("<h2>Rate per round: ").append(result.rate().key()).append("</h2>\n");
        rates(h, result);
        h.append("<h2>Ratio of medians</h2>\n");
        ratio(h, i, Verdict.floor(result.maxRegressionPercent()));
        h.append("<h2>Latency percentiles</h2>\n");
        latency(h, result);
        h.append("<h2>Context</h2>\n");
        context(h, result);
        return h.append("</body></html>\n").toString();
    }

    private static void rates(final StringBuilder h, final BaselineGate.GateResult result)
    {
        final List<Double> c = result.candidateRounds().stream().map(result.rate()::of).toList();
        final List<Double> b = result.baselineRounds().stream().map(result.rate()::of).toList();
        double max = 0;
        for (final double v : c)
        {
            max = Math.max(max, v);
        }
        for (final double v : b)
        {
            max = Math.max(max, v);
        }
        max = max <= 0 ? 1 : max * 1.1;
        openSvg(h, "rates-chart", result.rate().key() + " per round");
        axes(h, String.format(Locale.ROOT, "%.2f M/s", max / 1e6), "round");
        series(h, c, max, CANDIDATE_COLOUR, "candidate");
        series(h, b, max, BASELINE_COLOUR, "baseline");
        legend(h);
        h.append("</svg>\n<table><tr><th>round</th><th>candidate</th><th>baseline</th></tr>\n");
        for (int r = 0; r < c.size(); r++)
        {
            h.append(String.format(Locale.ROOT, "<tr><td>%d</td><td>%.0f</td><td>%.0f</td></tr>%n", r + 1, c.get(r),
                b.get(r)));
        }
        h.append("</table>\n");
    }

    private static void series(
        final StringBuilder h, final List<Double> values, final double max, final String colour, final String name)
    {
        final StringBuilder points = new StringBuilder();
        for (int r = 0; r < values.size(); r++)
        {
            final double x = x(r, values.size());
            final double y = HEIGHT - MARGIN - (HEIGHT - 2.0 * MARGIN) * values.get(r) / max;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            h.append(String.format(Locale.ROOT, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">" +
                "<title>%s round %d: %.0f/s</title></circle>%n", name, x, y, colour, name, r + 1, values.get(r)));
        }
        h.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" points=\"")
            .append(points.toString().strip()).append("\"/>\n");
    }

    private static double x(final int round, final int count)
    {
        return count < 2 ? WIDTH / 2.0 : MARGIN + (WIDTH - 2.0 * MARGIN) * round / (count - 1);
    }

    private static void ratio(final StringBuilder h, final RatioInterval i, final double floor)
    {
        double lo = Math.min(Math.min(i.low(), floor), 1.0);
        double hi = Math.max(i.high(), 1.0);
        final double pad = Math.max(0.02, (hi - lo) * 0.1);
        lo -= pad;
        hi += pad;
        openSvg(h, "ratio-chart", "candidate / baseline with its interval");
        final int y = HEIGHT / 2;
        h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>%n",
            MARGIN, y + 40, WIDTH - MARGIN, y + 40));
        marker(h, scale(1.0, lo, hi), "#888", "1.000 (equal)", y);
        marker(h, scale(floor, lo, hi), "#d62728", String.format(Locale.ROOT, "%.3f (allowed)", floor), y);
        h.append(String.format(Locale.ROOT, "<rect id=\"ratio-interval\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" " +
            "height=\"16\" fill=\"%s\" fill-opacity=\"0.35\"><title>interval %.3f .. %.3f</title></rect>%n",
            scale(i.low(), lo, hi), y - 8, Math.max(1, scale(i.high(), lo, hi) - scale(i.low(), lo, hi)),
            CANDIDATE_COLOUR, i.low(), i.high()));
        h.append(String.format(Locale.ROOT, "<circle id=\"ratio-point\" cx=\"%.1f\" cy=\"%d\" r=\"5\" fill=\"%s\">" +
            "<title>ratio %.3f</title></circle>%n", scale(i.ratio(), lo, hi), y, CANDIDATE_COLOUR, i.ratio()));
        text(h, MARGIN, y + 58, String.format(Locale.ROOT, "%.3f", lo), "start");
        text(h, WIDTH - MARGIN, y + 58, String.format(Locale.ROOT, "%.3f", hi), "end");
        h.append("</svg>\n");
    }

    private static void marker(final StringBuilder h, final double x, final String colour, final String label,
        final int y)
    {
        h.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" " +
            "stroke-dasharray=\"4 3\"/>%n", x, y - 40, x, y + 40, colour));
        text(h, x, y - 46, label, "middle");
    }

    private static double scale(final double v, final double lo, final double hi)
    {
        final double clamped = Double.isNaN(v) ? lo : Math.max(lo, Math.min(hi, v));
        return MARGIN + (WIDTH - 2.0 * MARGIN) * (clamped - lo) / (hi - lo);
    }

    private static void latency(final StringBuilder h, final BaselineGate.GateResult result)
    {
        final Map<?, ?> c = percentiles(result.candidateRounds());
        final Map<?, ?> b = percentiles(result.baselineRounds());
        if (null == c || null == b)
        {
            h.append("<p id=\"no-latency\">Not measured: this benchmark gives throughput only.</p>\n");
            return;
        }
        h.append("<table id=\"latency\"><tr><th>percentile (last round)</th><th>candidate ns</th>" +
            "<th>baseline ns</th></tr>\n");
        for (final Map.Entry<?, ?> e : c.entrySet())
        {
            h.append("<tr><td>").append(escape(String.valueOf(e.getKey()))).append("</td><td>")
                .append(escape(String.valueOf(e.getValue()))).append("</td><td>")
                .append(escape(String.valueOf(b.get(e.getKey())))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static Map<?, ?> percentiles(final List<Map<String, Object>> rounds)
    {
        return rounds.isEmpty() ? null : rounds.getLast().get("latencyPercentiles") instanceof Map<?, ?> m ? m : null;
    }

    private static void context(final StringBuilder h, final BaselineGate.GateResult result)
    {
        final Map<?, ?> c = contextOf(result.candidateRounds());
        final Map<?, ?> b = contextOf(result.baselineRounds());
        final Set<Object> keys = new LinkedHashSet<>(c.keySet());
        keys.addAll(b.keySet());
        h.append("<table id=\"context\"><tr><th></th><th>candidate</th><th>baseline</th></tr>\n");
        for (final Object key : keys)
        {
            h.append("<tr><th>").append(escape(String.valueOf(key))).append("</th><td>")
                .append(escape(show(c.get(key)))).append("</td><td>").append(escape(show(b.get(key))))
                .append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static Map<?, ?> contextOf(final List<Map<String, Object>> rounds)
    {
        return !rounds.isEmpty() && rounds.getFirst().get("context") instanceof Map<?, ?> m ? m : Map.of();
    }

    private static String show(final Object value)
    {
        if (value instanceof List<?> list)
        {
            final List<String> items = new ArrayList<>();
            list.forEach(o -> items.add(String.valueOf(o)));
            return String.join(" ", items);
        }
        return null == value ? "(not given)" : String.valueOf(value);
    }

    private static void openSvg(final StringBuilder h, final String id, final String title)
    {
        h.append(String.format(Locale.ROOT, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" " +
            "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>%n", id, WIDTH, HEIGHT, WIDTH, HEIGHT,
            escape(title)));
    }

    private static void axes(final StringBuilder h, final String top, final String xLabel)
    {
        h.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>%n" +
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>%n", MARGIN, HEIGHT - MARGIN,
            WIDTH - MARGIN, HEIGHT - MARGIN, MARGIN, MARGIN, MARGIN, HEIGHT - MARGIN));
        text(h, MARGIN - 4, MARGIN, top, "end");
        text(h, MARGIN - 4, HEIGHT - MARGIN, "0", "end");
        text(h, WIDTH / 2.0, HEIGHT - 12, xLabel, "middle");
    }

    private static void legend(final StringBuilder h)
    {
        h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"8\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
            WIDTH - 170, CANDIDATE_COLOUR));
        text(h, WIDTH - 156, 17, "candidate", "start");
        h.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"8\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
            WIDTH - 86, BASELINE_COLOUR));
        text(h, WIDTH - 72, 17, "baseline", "start");
    }

    private static void text(final StringBuilder h, final double x, final double y, final String s,
        final String anchor)
    {
        h.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\">%s" +
            "</text>%n", x, y, anchor, escape(s)));
    }

    static String escape(final String s)
    {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
