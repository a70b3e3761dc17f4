/** Quick message media (management.md section 9): spaces in the file name become underscores. */
export const mediaFileName = (name: string) => name.replace(/\s/g, '_');

/** The upload body of `POST /quick-messages/{id}/media-upload` (multipart file and typeArch). */
export function mediaUploadBody(file: File): FormData {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new File([file], mediaFileName(file.name), { type: file.type }));
  return form;
}
