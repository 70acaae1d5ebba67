import LibraryBooksIcon from '@mui/icons-material/LibraryBooksOutlined';

/** The questionnaire template screens (route formsTemplates; docs/product-rules.md#templates). */
export { TemplateList } from './TemplateList';
export { SaveAsTemplateDialog } from './SaveAsTemplateDialog';
export { UseTemplateDialog } from './UseTemplateDialog';
export { useMayTemplate } from './access';
export const TemplateIcon = LibraryBooksIcon;
