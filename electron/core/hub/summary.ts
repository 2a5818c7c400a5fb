// What `hub publish` and `hub join` say they did: the counts both report, and the person the login role is.

/** The person this login role is on the hub, and how their local annotator got the hub's uuid; null for the admin. */
export type HubPersonHere = { name: string; uuid: string; uuidHere: 'same' | 'adopted' | 'made' | 'renamed' } | null;

/** What one publish added to the hub, or one join added here. */
export interface HubProjectCounts {
  project: string;
  /** The project's id on the hub. */
  hubProject: number;
  /** True when this run made the project (on the hub for publish, here for join); false when it was there. */
  created: boolean;
  /** Each count is what THIS run added. */
  items: number;
  /** Items the hub holds for the project after it. */
  itemsOnHub: number;
  images: number;
  rubricVersions: number;
  rubricInForce: string | null;
  guidelines: number;
  criteria: number;
  segmentations: number;
  annotator: HubPersonHere;
}
