pub mod parcel;
pub mod store;
