"""Colours and the page stylesheet shared by the table and the analysis panel.

Colours come from the Okabe-Ito palette (Okabe and Ito, 2008), which stays distinguishable for
the common forms of colour blindness; the charts also never rely on colour alone (a bust bar is
hatched and every bar carries its number as text).  Everything is inline: no web fonts, no icon
fonts, no CDN, so a classroom without internet renders the same page.
"""

from __future__ import annotations

OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

BUST_COLOUR = OKABE_ITO["vermillion"]
GAIN_COLOUR = OKABE_ITO["blue"]
OPTIMAL_COLOUR = OKABE_ITO["blue"]
THRESHOLD_COLOUR = OKABE_ITO["orange"]
STOP_COLOUR = OKABE_ITO["bluish_green"]
DRAW_ONCE_COLOUR = OKABE_ITO["sky_blue"]
OTHER_ACTION_COLOUR = OKABE_ITO["reddish_purple"]
BEST_OUTLINE = OKABE_ITO["black"]

#: Text in the palette's hues, dark enough for 4.5:1 on white (WCAG 2.1 AA): an error or a
#: wrong answer (vermillion's hue, 6.3:1) and a right answer (bluish green's hue, 5.8:1).
TEXT_ERROR_COLOUR = "#A63F00"
TEXT_OK_COLOUR = "#00735A"

#: Card suit colours: a dark red and near-black (they also differ in lightness and shape).
RED_SUIT = "#B3261E"
BLACK_SUIT = "#1B1B1B"

#: A system font stack (nothing downloaded).
FONT_STACK = (
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', 'Noto Sans', Arial, "
    "sans-serif"
)

#: Rules for every page (any cell's output): charts that size to their box, and the page-wide
#: projector mode of :class:`pushluck_teach.ui.projector.ProjectorSwitch` (a switch marked
#: ``pl-projector-on`` restyles the whole page; ``pl-tables-open`` unfolds what it folded).
PAGE_CSS = """
/* A chart (figure widget, class pl-chart) takes its box's width; charts in a row share it and
   wrap below one another when one would be narrower than 380 px. */
.pl-chart { min-width: 0; max-width: 100%; box-sizing: border-box; overflow: hidden; }
.widget-hbox:has(> .pl-chart), .pl-charts { flex-wrap: wrap; column-gap: 8px; }
.widget-hbox > .pl-chart, .pl-charts > * { flex: 1 1 380px; min-width: 0; }
.widget-vbox > .pl-chart, .widget-box > .pl-chart { align-self: stretch; }
.jp-OutputArea-output > .pl-chart { width: 100%; }
/* The analysis panel's charts: as many columns as fit, each at least 360 px wide. */
.pl-grid { display: grid !important; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr));
  column-gap: 8px; }
.pl-grid > .pl-cell { width: auto !important; margin: 4px !important; min-width: 0; }
.pl-figure-holder > .pl-chart { flex: 1 1 auto; }
/* Wide screens: a Play table's board on the left, the coach's charts beside it. */
@media (min-width: 1300px) {
  .pushluck-table:not(.pushluck-projector) { display: grid !important;
    grid-template-columns: minmax(0, 580px) minmax(0, 1fr); column-gap: 16px;
    grid-template-areas: "style style" "title title" "controls controls"
      "settings settings" "main panel" "note panel" ". panel"; align-items: start; }
  .pushluck-table:not(.pushluck-projector) > .pl-style { grid-area: style; }
  .pushluck-table:not(.pushluck-projector) > .pl-title { grid-area: title; }
  .pushluck-table:not(.pushluck-projector) > .pl-controls { grid-area: controls; }
  .pushluck-table:not(.pushluck-projector) > .pl-settings { grid-area: settings; }
  .pushluck-table:not(.pushluck-projector) > .pl-main { grid-area: main; }
  .pushluck-table:not(.pushluck-projector) > .pl-note { grid-area: note; }
  .pushluck-table:not(.pushluck-projector) > .pl-panel { grid-area: panel; }
}
/* Text at least 4.5:1 against its background (WCAG 2.1 AA), where the widgets' own theme has
   less: a folding section's header and a tab's label (grey on grey). */
.jupyter-widget-Collapse-header, .jupyter-widget-Collapse-header span,
.lm-TabBar-tab, .lm-TabBar-tabLabel { color: #1a1a1a; }
/* A button without a width of its own is as wide as its words (never cut). */
body .jupyter-button:not(.pushluck-action) { width: auto;
  min-width: var(--jp-widgets-inline-width-short); }
/* Projector mode, page-wide. */
.pl-tables-toggle { display: none !important; }
.pl-projector-on .pl-tables-toggle { display: inline-flex !important; }
body:has(.pl-projector-on) { --jp-widgets-font-size: 16px; --jp-widgets-inline-height: 34px;
  --jp-content-font-size1: 18px; }
body:has(.pl-projector-on) #rendered_cells { padding: 0 8px !important; }
body:has(.pl-projector-on) .jp-Cell { padding-top: 2px; padding-bottom: 2px; }
body:has(.pl-projector-on) .jp-OutputArea-output pre { font-size: 17px; }
body:has(.pl-projector-on) .jp-MarkdownOutput h1 { font-size: 26px; margin: 2px 0 4px; }
body:has(.pl-projector-on:not(.pl-tables-open):not(.pl-keep-text):not(.pl-keep-tables))
  .jp-MarkdownOutput > :not(h1) { display: none; }
body:has(.pl-projector-on.pl-keep-tables:not(.pl-tables-open))
  .jp-MarkdownOutput > :is(:not(h1, h2, table), h2:not(:has(~ table))) { display: none; }
body:has(.pl-projector-on) :is(.jp-MarkdownOutput, .jp-RenderedMarkdown) {
  font-size: 18px; line-height: 1.4; }
body:has(.pl-projector-on) :is(.jp-MarkdownOutput, .jp-RenderedMarkdown) :is(code, pre, td, th) {
  font-size: 16px; }
body:has(.pl-projector-on) :is(.jp-MarkdownOutput, .jp-RenderedMarkdown) h2 { font-size: 23px;
  margin: 6px 0 2px; }
body:has(.pl-projector-on) :is(.jp-MarkdownOutput, .jp-RenderedMarkdown) :is(td, th) {
  padding: 2px 8px; }
/* A column of text boxes (a lesson's position form) flows in rows. */
body:has(.pl-projector-on) .widget-vbox:has(> .widget-text):not(:has(> :not(.widget-text))) {
  flex-flow: row wrap !important; column-gap: 12px; }
/* A page whose charts sit one below another (add_projector_switch(columns=True)): its chart
   rows two to a row, every other row across the width. */
body:has(.pl-projector-on) .pl-columns { display: grid !important;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); grid-auto-flow: row dense;
  column-gap: 12px; align-items: start; }
body:has(.pl-projector-on) .pl-columns > * { grid-column: 1 / -1; }
body:has(.pl-projector-on) .pl-columns > :is(.pl-chart, .widget-hbox:has(> .pl-chart)) {
  grid-column: auto; }
body:has(.pl-projector-on) .pl-columns > .widget-hbox:has(> .pl-chart) { flex-wrap: wrap; }
body:has(.pl-projector-on) .pl-columns > .widget-hbox > .pl-chart { flex: 1 1 100%; }
/* A long page whose switch folds its outputs (ProjectorSwitch(fold_outputs=True)): only the
   cells holding key content (class pushluck-key), the switch and the title stay. */
body:has(.pl-projector-on.pl-fold-outputs:not(.pl-tables-open))
  .jp-Cell:not(:has(.pushluck-key, .pl-projector-switch, h1)) { display: none; }
body:has(.pl-projector-on.pl-fold-outputs:not(.pl-tables-open)) .pl-chart.pushluck-key {
  max-width: 720px; }
body:has(.pl-projector-on:not(.pl-tables-open)) .pl-fold,
body:has(.pl-projector-on:not(.pl-tables-open)) .pl-fold-tables table {
  display: none !important; }
body:has(.pl-projector-on) .widget-html-content { font-size: 18px; line-height: 1.35; }
body:has(.pl-projector-on) :is(.pushluck-numbers, .pushluck-note) {
  font-size: 16px !important; }
/* A widget's description in large type takes the width its words need (a fixed label width
   would cut it). */
body:has(.pl-projector-on) .widget-inline-hbox > .widget-label { width: auto !important;
  max-width: none !important; flex: 0 0 auto; }
body:has(.pl-projector-on) .js-plotly-plot:not(:hover) .modebar-container { display: none; }
.pushluck-projector > .pl-controls { --jp-widgets-font-size: 16px;
  --jp-widgets-inline-height: 32px; }
body:has(.pl-projector-on) .jupyter-button:not(.pushluck-action) { width: fit-content;
  min-width: 0; padding: 0 12px; }
body:has(.pl-projector-on) .widget-hbox:has(> .pl-chart),
body:has(.pl-projector-on) .pl-charts { flex-wrap: nowrap; }
body:has(.pl-projector-on) .widget-hbox > .pl-chart,
body:has(.pl-projector-on) .pl-charts > * { flex: 1 1 0; }
"""

STYLESHEET = f"""
<style>
.pushluck-table, .pushluck-analysis {{ font-family: {FONT_STACK}; }}
.pushluck-cards {{ display: flex; flex-wrap: wrap; gap: 10px; min-height: 132px;
  align-items: center; }}
.pushluck-card {{ position: relative; box-sizing: border-box; width: 88px; height: 124px;
  border: 2px solid #444; border-radius: 10px; background: #fff;
  box-shadow: 1px 2px 4px rgba(0,0,0,.25); font-weight: 700; user-select: none; }}
.pushluck-card-red {{ color: {RED_SUIT}; }}
.pushluck-card-black {{ color: {BLACK_SUIT}; }}
.pushluck-card-joker {{ color: #5B2C83; background: #FFF8E1; }}
.pushluck-card .pl-corner {{ position: absolute; font-size: 22px; line-height: 1;
  text-align: center; }}
.pushluck-card .pl-top {{ top: 6px; left: 7px; }}
.pushluck-card .pl-bottom {{ bottom: 6px; right: 7px; transform: rotate(180deg); }}
.pushluck-card .pl-centre {{ position: absolute; inset: 0; display: flex;
  align-items: center; justify-content: center; font-size: 52px; }}
.pushluck-card-joker .pl-centre {{ font-size: 40px; flex-direction: column; }}
.pushluck-card-joker .pl-word {{ font-size: 15px; letter-spacing: 2px; }}
.pushluck-die {{ box-sizing: border-box; width: 72px; height: 72px; border: 2px solid #333;
  border-radius: 14px; background: #fff; display: flex; align-items: center;
  justify-content: center; font-size: 38px; font-weight: 700; color: {BLACK_SUIT};
  box-shadow: 1px 2px 4px rgba(0,0,0,.25); }}
.pushluck-empty {{ color: #555; font-style: italic; font-size: 18px; }}
.pushluck-scores table, .pushluck-numbers table {{ border-collapse: collapse; }}
.pushluck-scores td, .pushluck-scores th, .pushluck-numbers td, .pushluck-numbers th {{
  padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }}
.pushluck-scores tr.pl-to-move {{ background: #FFF3C4; font-weight: 700; }}
.pushluck-message {{ font-size: 18px; min-height: 1.5em; }}
.pushluck-message-error {{ color: {RED_SUIT}; font-weight: 700; }}
.pushluck-status {{ font-size: 20px; }}
.pushluck-log {{ max-height: 220px; overflow-y: auto; font-size: 14px;
  border: 1px solid #ddd; padding: 4px 8px; background: #FAFAFA; }}
.pushluck-finished {{ font-size: 22px; font-weight: 700; color: {OKABE_ITO['blue']}; }}
.pushluck-cli {{ font-size: 14px; background: #F3F3F3; padding: 2px 4px; }}
.pushluck-numbers {{ font-size: 14px; max-height: 320px; overflow-y: auto; }}
.pushluck-headline {{ font-size: 20px; }}
.pushluck-action button, button.pushluck-action {{ font-size: 18px; }}
/* Action buttons: full labels; the risky action (draw, roll) and the safe one (stop, bank)
   differ in colour and border; a disabled button is grey, dashed and faded. */
.pushluck-table .pushluck-action {{ width: auto !important; min-width: 120px;
  padding: 0 18px; white-space: nowrap; }}
.pushluck-table .pushluck-risky:not(:disabled) {{ background: {OKABE_ITO['orange']};
  color: #000; border: 2px solid #7A5200; }}
.pushluck-table .pushluck-safe:not(:disabled) {{ background: {OKABE_ITO['bluish_green']};
  color: #000; border: 2px solid #00563F; }}
.pushluck-table .pushluck-action:disabled {{ background: #EEEEEE !important;
  color: #8A8A8A !important; border: 2px dashed #B5B5B5 !important; opacity: .6;
  box-shadow: none !important; cursor: not-allowed; }}
.pushluck-cli {{ user-select: all; }}
.pushluck-copy {{ font-size: 13px; padding: 1px 10px; margin-left: 4px; cursor: pointer;
  border: 1px solid #777; border-radius: 4px; background: #fff; }}
.pl-only-projector {{ display: none; }}
.pl-details-toggle {{ display: none !important; }}
/* Projector mode (GameTable.projector): at 1280x720 the table and the two key charts side by
   side, large type, the page's own text and the number tables folded away. */
body:has(.pushluck-projector) .jp-MarkdownOutput {{ display: none; }}
body:has(.pushluck-projector) #rendered_cells {{ padding: 0 8px !important; }}
.pushluck-projector {{ display: grid !important; grid-template-columns: 420px minmax(0, 1fr);
  grid-template-areas: "title title" "controls controls" "main panel" "note note"
  "settings settings"; column-gap: 12px; align-items: start; font-size: 18px; }}
.pushluck-projector > .pl-style {{ display: none; }}
.pushluck-projector > .pl-title {{ grid-area: title; }}
.pushluck-projector > .pl-controls {{ grid-area: controls; }}
.pushluck-projector > .pl-main {{ grid-area: main; flex-direction: column !important; }}
.pushluck-projector > .pl-panel {{ grid-area: panel; }}
.pushluck-projector > .pl-note {{ grid-area: note; }}
.pushluck-projector > .pl-settings {{ grid-area: settings; }}
.pushluck-projector .pl-only-projector {{ display: block; }}
.pushluck-projector .pl-title h2 {{ font-size: 26px; margin: 0; }}
.pushluck-projector .pl-title .pl-blurb {{ display: none; }}
.pushluck-projector .pl-left, .pushluck-projector .pl-right {{ width: auto !important;
  margin: 0 !important; }}
.pushluck-projector .pl-log {{ display: none; }}
.pushluck-projector .pushluck-cards {{ min-height: 88px; gap: 6px; }}
.pushluck-projector .pushluck-card {{ width: 58px; height: 82px; border-radius: 7px; }}
.pushluck-projector .pushluck-card .pl-corner {{ font-size: 16px; }}
.pushluck-projector .pushluck-card-joker .pl-word {{ font-size: 16px; letter-spacing: 0; }}
.pushluck-projector .pushluck-card .pl-centre {{ font-size: 32px; }}
.pushluck-projector .pushluck-die {{ width: 56px; height: 56px; font-size: 30px; }}
.pushluck-projector .pushluck-status {{ font-size: 20px; }}
.pushluck-projector .pushluck-headline {{ font-size: 19px; line-height: 1.25; }}
.pl-projector .pl-details-toggle {{ display: inline-flex !important; }}
.pl-projector.widget-vbox {{ flex-flow: row wrap !important; align-items: center;
  column-gap: 8px; }}
.pl-projector > * {{ flex: 1 1 100%; }}
/* the progress bar and the details button share a line; the headline says "computing" */
.pl-projector > .pl-progress {{ flex: 1 1 200px; }}
.pl-projector > .pl-progress > .widget-html {{ display: none; }}
.pl-projector > .pl-details-toggle {{ flex: 0 0 auto; }}
.pl-projector .pl-cell {{ width: auto !important; margin: 2px !important; }}
.pl-projector .pl-figure-holder {{ min-height: 300px !important; }}
.pl-projector .pl-grid {{ grid-template-columns: repeat(2, minmax(0, 1fr)) !important; }}
.pl-projector .pl-cell-extra, .pl-projector .pl-numbers-text {{ display: none !important; }}
.pl-projector.pl-details-open .pl-cell-extra {{ display: flex !important; }}
.pl-projector.pl-details-open .pl-numbers-text {{ display: block !important; }}
{PAGE_CSS}
</style>
"""
