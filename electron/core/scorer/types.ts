// The scorer's serializable types live in shared/ (the renderer shows them); re-exported for core code.
export type * from '../../../shared/scoring';
