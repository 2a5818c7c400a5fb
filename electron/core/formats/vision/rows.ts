// What export encoders put on a row beside its fields, for the writers (./imagesBeside.ts,
// ./storedImages.ts): symbol keys, so JSON.stringify and the Parquet columns never see them.

/** The row's item ("q-17" or #12), for a message about one of its images. */
export const ROW_ITEM = Symbol('item');
