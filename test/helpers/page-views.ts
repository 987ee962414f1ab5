import type { PageView } from "../../src/pages/view-model.ts";

/**
 * A page view for the renderers' unit tests: a dated, unbranded, editable text page with one attendee and
 * nothing else; `overrides` give each test what it is about.
 */
export function testPageView(overrides: Partial<PageView> = {}): PageView {
  return {
    kind: "verbose-text-summary",
    title: "Planning",
    language: null,
    startTime: "2026-11-02T15:00:00.000Z",
    endTime: "2026-11-02T15:42:00.000Z",
    dated: true,
    attendees: [{ id: "m1", name: "Ann Lee", avatarUrl: null }],
    decisions: [],
    summary: [],
    topics: [],
    insights: [],
    dismissedInsights: [],
    messages: [],
    analysisNotice: null,
    trackers: [],
    trackerMatches: [],
    mediaUrl: null,
    recordings: [],
    branding: {
      background: null,
      topicsFilter: null,
      insightsFilter: null,
      fontFamily: null,
      logo: null,
      favicon: null,
    },
    readOnly: false,
    hideShareButton: false,
    live: false,
    ...overrides,
  };
}
