pub mod keys;
pub mod parcel;
