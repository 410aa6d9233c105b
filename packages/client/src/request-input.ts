/** A request record as a method takes it: the client fills `merchant_id` and `account_id` and computes `encryption_data`. */
export type RequestInput<Request> = Omit<Request, 'merchant_id' | 'account_id' | 'encryption_data'>;
