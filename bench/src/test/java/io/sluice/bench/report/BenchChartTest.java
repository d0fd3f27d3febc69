package io.sluice.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import io.sluice.bench.run.PipelineRun;

/** The chart is well-formed SVG with one line per measured series and a bar per freshness percentile. */
class BenchChartTest {
    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> series(Document svg, String element) {
        NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", element);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            String name = ((Element) nodes.item(i)).getAttribute("data-series");
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    @Test
    void theChartIsWellFormedSvg() throws Exception {
        Document svg = parse(BenchChart.svg(BenchReportTest.results()));
        assertEquals("svg", svg.getDocumentElement().getLocalName());
    }

    @Test
    void throughputAndLatencyHaveOneLinePerSeries() throws Exception {
        Document svg = parse(BenchChart.svg(BenchReportTest.results()));
        assertEquals(List.of("gateway req/s", "ceiling req/s", "gateway p50 ms", "gateway p99 ms", "ceiling p50 ms",
                "ceiling p99 ms"), series(svg, "polyline"));
    }

    @Test
    void eachLineHasAPointPerConnectionCount() throws Exception {
        Document svg = parse(BenchChart.svg(BenchReportTest.results()));
        Element line = (Element) svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").item(0);
        assertEquals(PipelineRun.CONNECTIONS.size(), line.getAttribute("points").split(" ").length);
    }

    @Test
    void freshnessHasP50AndP99BarsAtHalfTheSustainedRateAndUnderLightLoad() throws Exception {
        Document svg = parse(BenchChart.svg(BenchReportTest.results()));
        assertEquals(List.of("half sustained p50", "half sustained p99", "light load p50", "light load p99"),
                series(svg, "rect"));
    }
}
