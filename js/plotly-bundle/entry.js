// plotly.js with only the trace types pushluck_teach draws (see scripts/build_plotly_bundle.sh).
// The list is checked by tests/test_plotly_bundle.py against every trace the package builds.
import Plotly from "plotly.js/lib/core";
import bar from "plotly.js/lib/bar";
import contour from "plotly.js/lib/contour";
import heatmap from "plotly.js/lib/heatmap";
import histogram from "plotly.js/lib/histogram";
import indicator from "plotly.js/lib/indicator";
import scatter from "plotly.js/lib/scatter";
import surface from "plotly.js/lib/surface";

Plotly.register([bar, contour, heatmap, histogram, indicator, scatter, surface]);
globalThis.Plotly = Plotly;
export default Plotly;
