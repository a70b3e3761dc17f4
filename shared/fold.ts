/**
 * Lower case without accents ("Ação" -> "acao"): how names, tags and phrases are compared in pt, en
 * and es, on the server and in the browser. (The search index's analyzer, functions/lib/search/
 * normalize.ts, folds the same way and also keeps offsets for highlights.)
 */
export const foldAccents = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
