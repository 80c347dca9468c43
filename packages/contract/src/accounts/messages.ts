export const MSG_ACCOUNT_SITE_CHANGED_RELOAD =
  "Account data has been saved successfully. Page was reloaded because the account's site was changed.";
export const MSG_ACCOUNT_DISABLED_LABEL = 'Disabled and eligible for automatic deletion';
export const MSG_ACCOUNT_NAME_TAKEN = 'An account with this name already exists';
export const MSG_ACCOUNT_NAME_RESERVED_PATH = 'This name cannot be used: it is a reserved word';
export const MSG_ACCOUNT_NAME_RESERVED_BY_OTHER = 'This name is reserved for another clone';
export const MSG_CONCURRENT_LIMIT_REACHED =
  'The concurrent user limit of this account has been reached; please try again later';
export const MSG_ACCOUNT_LOCKED = 'Access to this account is locked';
export const MSG_FIELD_REQUIRED = 'This field is required';
/** spec2 §5: the text-input dialog's message when left empty. */
export const MSG_INPUT_REQUIRED = 'Input required';
export const MSG_FIELD_EMPTY = 'This field cannot be empty';
export const MSG_CHANGES_SAVED = 'Changes saved';
export const MSG_DATA_SAVED_GENERIC = 'Account data has been saved successfully';
